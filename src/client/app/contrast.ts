/**
 * Colour tokens that meet WCAG 2.2 AA text contrast (4.5:1) in light and dark, applied on top of
 * Mantine's defaults. Mantine's light scheme puts white text on shade 6 (3.5:1 for blue) and uses
 * shade 6 for coloured text and links, gray 6 for dimmed text; the dark scheme's dimmed text is
 * 4:1. Instead of picking shades by hand per colour, each colour takes the shade nearest to
 * Mantine's own that reaches the ratio, so the look stays the same where it already passed.
 */
import { luminance, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

const WHITE = '#ffffff';
const AA = 4.6; // 4.5:1 with a little room for anti-aliasing and tinted backgrounds

function ratio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The first shade, from `from` in the direction `step`, with the ratio against every background. */
function shadeFor(tuple: MantineColorsTuple, from: number, step: 1 | -1, against: string[]): number {
  for (let i = from; i >= 0 && i <= 9; i += step) if (against.every((bg) => ratio(tuple[i], bg) >= AA)) return i;
  return step === 1 ? 9 : 0;
}

/** `hex` mixed towards `towards` until it has the ratio against every background. */
function mixFor(hex: string, towards: 'black' | 'white', against: string[]): string {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const end = towards === 'black' ? 0 : 255;
  for (let k = 0; k <= 0.7; k += 0.02) {
    const out = `#${rgb
      .map((c) =>
        Math.round(c + (end - c) * k)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    if (against.every((bg) => ratio(out, bg) >= AA)) return out;
  }
  return towards === 'black' ? '#000000' : WHITE;
}

const LIGHT_SURFACES = [WHITE, '#f1f3f5']; // body, gray.1 (striped rows, filled inputs)

export const contrastCssVariables: CSSVariablesResolver = (theme) => {
  const dark = theme.colors.dark;
  const darkSurfaces = [dark[7], dark[6]]; // body, cards and inputs
  // Dimmed text also sits on highlighted surfaces: a hovered default button (the portal switcher's
  // host) and the active menu item, whose highlight is dark-5 here instead of Mantine's dark-4
  // (#424242, where even #b0b0b0 would only just reach 4.5:1 and dimmed text would stop looking dimmed).
  const darkHighlight = dark[5];
  const light: Record<string, string> = {
    '--mantine-color-dimmed': '#656c73',
    '--mantine-color-placeholder': '#6b737a',
    '--mantine-color-disabled-color': 'var(--mantine-color-gray-6)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    '--mantine-color-anchor': `var(--mantine-color-${theme.primaryColor}-text)`,
  };
  const darkVars: Record<string, string> = {
    // Just lighter than the former #a0a0a0 / #8f8f8f (4.3:1 and 4.2:1 where they were highlighted or on inputs).
    '--mantine-color-dimmed': mixFor('#a0a0a0', 'white', [...darkSurfaces, darkHighlight]),
    '--mantine-color-placeholder': mixFor('#8f8f8f', 'white', darkSurfaces),
    '--menu-item-hover': darkHighlight,
    '--mantine-color-disabled-color': 'var(--mantine-color-dark-2)',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  };
  for (const [name, tuple] of Object.entries(theme.colors)) {
    if (!Array.isArray(tuple) || tuple.length < 10 || name === 'dark') continue;
    // Light: white text on the filled shade, and the coloured text (links, outline, subtle) on white.
    const filled = shadeFor(tuple, 6, 1, [WHITE]);
    light[`--mantine-color-${name}-filled`] = `var(--mantine-color-${name}-${filled})`;
    light[`--mantine-color-${name}-filled-hover`] = `var(--mantine-color-${name}-${Math.min(filled + 1, 9)})`;
    const text = shadeFor(tuple, 6, 1, LIGHT_SURFACES);
    light[`--mantine-color-${name}-text`] = `var(--mantine-color-${name}-${text})`;
    light[`--mantine-color-${name}-outline`] = `var(--mantine-color-${name}-${text})`;
    // Light variant (badges, light buttons, alerts): Mantine draws shade 9 on shade 1, under 4.5:1
    // for most colours (green 3.8, orange 3.6); the text is darkened just enough, the tint kept.
    light[`--mantine-color-${name}-light-color`] = mixFor(tuple[9], 'black', [tuple[1], WHITE]);
    // Dark: white text on the filled shade, coloured text (shade 4 by default) on the dark surfaces.
    const darkFilled = shadeFor(tuple, 8, 1, [WHITE]);
    darkVars[`--mantine-color-${name}-filled`] = `var(--mantine-color-${name}-${darkFilled})`;
    darkVars[`--mantine-color-${name}-filled-hover`] = `var(--mantine-color-${name}-${Math.min(darkFilled + 1, 9)})`;
    const darkText = shadeFor(tuple, 4, -1, darkSurfaces);
    darkVars[`--mantine-color-${name}-text`] = `var(--mantine-color-${name}-${darkText})`;
    darkVars[`--mantine-color-${name}-outline`] = `var(--mantine-color-${name}-${darkText})`;
  }
  // Mantine merges these over its defaults.
  return { variables: {}, light, dark: darkVars };
};
