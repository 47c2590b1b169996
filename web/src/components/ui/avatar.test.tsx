import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Avatar } from '@/components/ui/avatar';

describe('avatar', () => {
  it('hides a decorative avatar (empty alt) from screen readers instead of announcing a nameless image', () => {
    const { container } = render(<Avatar initials="AL" alt="" />);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
  });

  it('names an avatar that means something', () => {
    render(<Avatar initials="AL" alt="Ada's profile picture" />);
    expect(screen.getByRole('img', { name: "Ada's profile picture" })).toHaveTextContent('AL');
  });
});
