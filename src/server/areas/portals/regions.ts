/**
 * `portals/regions` and `portals/languages`: the regions an organization may choose and the
 * languages the portal knows. Both are fixed tables, the same for every organization and caller.
 *
 * Region names come from the runtime's CLDR data (Intl.DisplayNames), so `culture` gives real
 * localized names; `WO` (World, the default region of portals/self) is CLDR's `001`.
 */
import type { PortalLanguage, PortalRegion } from '../../../shared/contract/portals.ts';

/** World first (as ArcGIS lists it), then the countries in code order. */
const REGION_CODES = [
  'WO',
  'AE',
  'AR',
  'AT',
  'AU',
  'BE',
  'BG',
  'BO',
  'BR',
  'CA',
  'CH',
  'CL',
  'CN',
  'CO',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HK',
  'HR',
  'HU',
  'ID',
  'IE',
  'IL',
  'IN',
  'IT',
  'JP',
  'KR',
  'LT',
  'LV',
  'MX',
  'MY',
  'NL',
  'NO',
  'NZ',
  'PE',
  'PH',
  'PL',
  'PT',
  'RO',
  'RS',
  'RU',
  'SA',
  'SE',
  'SG',
  'SI',
  'SK',
  'TH',
  'TR',
  'TW',
  'UA',
  'US',
  'VE',
  'VN',
  'ZA',
] as const;

/** The codes ArcGIS uses that are not CLDR region codes. */
const CLDR_CODE: Record<string, string> = { WO: '001' };

/** The languages, with each one's own name (as the documented example lists them). */
export const LANGUAGES: readonly PortalLanguage[] = [
  { language: 'Arabic', culture: 'ar', localizedName: 'عربي' },
  { language: 'Bosnian', culture: 'bs', localizedName: 'Bosanski' },
  { language: 'Bulgarian', culture: 'bg', localizedName: 'Български' },
  { language: 'Catalan', culture: 'ca', localizedName: 'Català' },
  { language: 'Simplified Chinese', culture: 'zh-CN', localizedName: '简体中文' },
  { language: 'Traditional Chinese (Hong Kong)', culture: 'zh-HK', localizedName: '繁體中文 (香港)' },
  { language: 'Traditional Chinese (Taiwan)', culture: 'zh-TW', localizedName: '繁體中文 (台灣)' },
  { language: 'Croatian', culture: 'hr', localizedName: 'Hrvatski' },
  { language: 'Czech', culture: 'cs', localizedName: 'Čeština' },
  { language: 'Danish', culture: 'da', localizedName: 'Dansk' },
  { language: 'Dutch', culture: 'nl', localizedName: 'Nederlands' },
  { language: 'English', culture: 'en', localizedName: 'English' },
  { language: 'Estonian', culture: 'et', localizedName: 'Eesti' },
  { language: 'Finnish', culture: 'fi', localizedName: 'Suomi' },
  { language: 'French', culture: 'fr', localizedName: 'Français' },
  { language: 'German', culture: 'de', localizedName: 'Deutsch' },
  { language: 'Greek', culture: 'el', localizedName: 'Ελληνικά' },
  { language: 'Hebrew', culture: 'he', localizedName: 'עברית' },
  { language: 'Hungarian', culture: 'hu', localizedName: 'Magyar' },
  { language: 'Indonesian', culture: 'id', localizedName: 'Bahasa Indonesia' },
  { language: 'Italian', culture: 'it', localizedName: 'Italiano' },
  { language: 'Japanese', culture: 'ja', localizedName: '日本語' },
  { language: 'Korean', culture: 'ko', localizedName: '한국어' },
  { language: 'Latvian', culture: 'lv', localizedName: 'Latviešu' },
  { language: 'Lithuanian', culture: 'lt', localizedName: 'Lietuvių' },
  { language: 'Norwegian', culture: 'nb', localizedName: 'Norsk' },
  { language: 'Polish', culture: 'pl', localizedName: 'Polski' },
  { language: 'Portuguese (Brazil)', culture: 'pt-BR', localizedName: 'Português (Brasil)' },
  { language: 'Portuguese (Portugal)', culture: 'pt-PT', localizedName: 'Português (Portugal)' },
  { language: 'Romanian', culture: 'ro', localizedName: 'Română' },
  { language: 'Russian', culture: 'ru', localizedName: 'Русский' },
  { language: 'Serbian', culture: 'sr', localizedName: 'Srpski' },
  { language: 'Slovak', culture: 'sk', localizedName: 'Slovenčina' },
  { language: 'Slovenian', culture: 'sl', localizedName: 'Slovenščina' },
  { language: 'Spanish', culture: 'es', localizedName: 'Español' },
  { language: 'Swedish', culture: 'sv', localizedName: 'Svenska' },
  { language: 'Thai', culture: 'th', localizedName: 'ไทย' },
  { language: 'Turkish', culture: 'tr', localizedName: 'Türkçe' },
  { language: 'Ukrainian', culture: 'uk', localizedName: 'Українська' },
  { language: 'Vietnamese', culture: 'vi', localizedName: 'Tiếng Việt' },
];

function regionNames(culture: string): Intl.DisplayNames {
  try {
    return new Intl.DisplayNames([culture, 'en'], { type: 'region' });
  } catch {
    // Not a language tag at all: English, as for a culture the data lacks.
    return new Intl.DisplayNames(['en'], { type: 'region' });
  }
}

// Made on first use: the runtime loads its region data for it (~50 ms of every start otherwise).
let english: Intl.DisplayNames | undefined;
const englishNames = () => (english ??= regionNames('en'));
const titleCase = (name: string) => name.charAt(0).toLocaleUpperCase() + name.slice(1);

/** The regions, named in English and in `culture` (English when it is absent or unknown). */
export function regionsIn(culture: string | undefined): PortalRegion[] {
  const inEnglish = englishNames();
  const localized = culture ? regionNames(culture) : inEnglish;
  return REGION_CODES.map((region) => {
    const cldr = CLDR_CODE[region] ?? region;
    return { name: titleCase(inEnglish.of(cldr) ?? region), region, localizedName: titleCase(localized.of(cldr) ?? region) };
  });
}
