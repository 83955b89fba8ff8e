/**
 * The form scaffold of issue 25, item 11: the live counter under limited fields (count, limit,
 * over-limit colour, announced only when crossing near / over) (the errored empty
 * field's colours are checked with the theme, app/theme.test.tsx; the dialog footer in
 * DialogFooter.test.tsx).
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { CountedTextarea, CountedTextInput, counterState } from './CountedField.tsx';

const polite = () => screen.getByTestId('announcer-polite');

function RegisteredField({ initial = '' }: { initial?: string }) {
  const form = useForm({ defaultValues: { title: initial } });
  return <CountedTextInput label="Title" {...form.register('title')} max={20} />;
}

describe('CountedTextInput / CountedTextarea', () => {
  it('shows "length / limit" live, with thousands separated, for a registered field and its loaded value', async () => {
    const { user } = renderWithProviders(<RegisteredField initial="Roads" />);
    expect(screen.getByText('5 / 20')).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: 'Title' });
    expect(input).not.toHaveAttribute('maxlength');
    await user.type(input, ' and rails');
    expect(screen.getByText('15 / 20')).toBeInTheDocument();
  });

  it('counts a controlled textarea and formats large limits', () => {
    renderWithProviders(<CountedTextarea label="Summary" max={2048} value={'x'.repeat(1234)} onChange={() => {}} />);
    expect(screen.getByText('1,234 / 2,048')).toBeInTheDocument();
  });

  it('announces politely only when the text comes near, goes over and comes back under the limit', async () => {
    const { user } = renderWithProviders(<RegisteredField />);
    const input = screen.getByRole('textbox', { name: 'Title' });
    await user.type(input, 'abc');
    // Far from the limit: nothing said, however much is typed.
    await new Promise((r) => setTimeout(r, 80));
    expect(polite()).toHaveTextContent('');
    await user.type(input, 'defghij'); // 10 left: within the last 10
    await waitFor(() => expect(polite()).toHaveTextContent('Title: 10 characters left'));
    // Still near: the next keystrokes are not spoken.
    await user.type(input, 'kl');
    await new Promise((r) => setTimeout(r, 80));
    expect(polite()).toHaveTextContent('Title: 10 characters left');
    fireEvent.change(input, { target: { value: 'x'.repeat(23) } });
    await waitFor(() => expect(polite()).toHaveTextContent('Title: 3 characters over the limit of 20'));
    const counter = screen.getByText('23 / 20');
    expect(counter).toHaveAttribute('data-counter', 'over');
    // The inline colour Mantine's `c` prop sets (a computed style would resolve the variable only in a browser).
    expect(counter.style.color).toBe('var(--mantine-color-error)');
    fireEvent.change(input, { target: { value: 'short' } });
    await waitFor(() => expect(polite()).toHaveTextContent('Title: within the limit again'));
    expect(screen.getByText('5 / 20')).toHaveAttribute('data-counter', 'ok');
  });

  it('is near in the last tenth of the limit (at least 10 characters)', () => {
    expect(counterState(1800, 2048)).toBe('ok');
    expect(counterState(1900, 2048)).toBe('near');
    expect(counterState(2048, 2048)).toBe('near');
    expect(counterState(2049, 2048)).toBe('over');
    expect(counterState(5, 20)).toBe('ok');
    expect(counterState(10, 20)).toBe('near');
  });
});
