/**
 * A disabled action says why in words on the screen (issue 25, item 14: touch screens never show a
 * tooltip), and the same words are the button's accessible description.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { GuardedButton } from './GuardedButton.tsx';

const REASON = 'Needs the privilege “Manage collaborations” (portal:admin:manageCollaborations).';

describe('GuardedButton', () => {
  it('shows the reason as visible text under a disabled action, names it as the description, and ignores clicks', async () => {
    const onClick = vi.fn();
    const { user } = renderWithProviders(
      <GuardedButton permission={{ allowed: false, reason: REASON, missing: 'portal:admin:manageCollaborations' }} onClick={onClick}>
        New collaboration
      </GuardedButton>,
    );
    const button = screen.getByRole('button', { name: 'New collaboration' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(REASON);
    // On the screen without hovering: the text is there and not visually hidden.
    const reason = screen.getByTestId('disabled-reason');
    expect(reason).toHaveTextContent(REASON);
    expect(reason).toBeVisible();
    expect(reason.className).not.toMatch(/VisuallyHidden/);
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('an allowed action is a plain button with no reason beside it', async () => {
    const onClick = vi.fn();
    const { user } = renderWithProviders(
      <GuardedButton permission={{ allowed: true }} onClick={onClick}>
        New collaboration
      </GuardedButton>,
    );
    await user.click(screen.getByRole('button', { name: 'New collaboration' }));
    expect(onClick).toHaveBeenCalledOnce();
    expect(screen.queryByTestId('disabled-reason')).toBeNull();
  });
});
