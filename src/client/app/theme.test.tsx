/** The theme (issue 25, item 11): an errored empty field must not look filled in. */
import { TextInput } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { ERRORED_INPUT_VARS } from './theme.ts';

describe('errored empty field', () => {
  it('keeps the placeholder (and text) colours; only the border and the message are red', () => {
    renderWithProviders(<TextInput label="Name" placeholder="e.g. Field crew" error="Enter a name" />);
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    const root = input.parentElement as HTMLElement;
    for (const [name, value] of Object.entries(ERRORED_INPUT_VARS)) expect(root.style.getPropertyValue(name)).toBe(value);
  });
});
