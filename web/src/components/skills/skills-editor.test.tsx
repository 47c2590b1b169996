import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { SkillsEditor } from '@/components/skills/skills-editor';
import type { Skill } from '@/lib/auth/types';

function Harness({ initial = [] as Skill[] }) {
  const [skills, setSkills] = useState<Skill[]>(initial);
  return (
    <>
      <SkillsEditor skills={skills} onChange={setSkills} />
      <output data-testid="skills">{JSON.stringify(skills)}</output>
    </>
  );
}

const current = () => JSON.parse(screen.getByTestId('skills').textContent ?? '[]') as Skill[];

describe('skills editor', () => {
  it('shows 8 of the 20 common skills with "+12 more skills available"', async () => {
    render(<Harness />);
    expect(screen.getByRole('button', { name: 'Plumbing' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Furniture Assembly' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Appliance Installation' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '+12 more skills available' }));
    expect(screen.getByRole('button', { name: 'Kitchen Remodel' })).toBeInTheDocument();
  });

  it('adds a common skill at the default level of 50', async () => {
    render(<Harness />);
    const slider = screen.getByRole('slider', { name: /proficiency/i });
    expect(slider).toHaveAttribute('min', '1');
    expect(slider).toHaveAttribute('max', '100');
    expect(slider).toHaveAttribute('step', '1');
    expect(slider).toHaveValue('50');
    await userEvent.click(screen.getByRole('button', { name: 'Plumbing' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Skill' }));
    expect(current()).toEqual([{ name: 'Plumbing', level: 50 }]);
    expect(screen.getByRole('button', { name: '+11 more skills available' })).toBeInTheDocument();
  });

  it('rejects a blank custom skill', async () => {
    render(<Harness />);
    await userEvent.type(screen.getByLabelText('Skill name'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Add Skill' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a skill name');
    expect(current()).toEqual([]);
  });

  it('does not add a common skill twice, whatever the case', async () => {
    render(<Harness initial={[{ name: 'Tiling', level: 70 }]} />);
    await userEvent.type(screen.getByLabelText('Skill name'), 'tILING');
    await userEvent.click(screen.getByRole('button', { name: 'Add Skill' }));
    expect(screen.getByRole('alert')).toHaveTextContent('tILING is already in your skills');
    expect(current()).toEqual([{ name: 'Tiling', level: 70 }]);
  });

  it('adds a custom skill and normalises a common name typed in another case', async () => {
    render(<Harness />);
    await userEvent.type(screen.getByLabelText('Skill name'), 'Piano tuning{Enter}');
    await userEvent.type(screen.getByLabelText('Skill name'), 'hvac');
    await userEvent.click(screen.getByRole('button', { name: 'Add Skill' }));
    expect(current()).toEqual([
      { name: 'Piano tuning', level: 50 },
      { name: 'HVAC', level: 50 },
    ]);
  });

  it('enters update mode when an added skill is selected', async () => {
    render(<Harness initial={[{ name: 'Painting', level: 80 }]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit Painting, level 80' }));
    const slider = screen.getByRole('slider', { name: /proficiency/i });
    expect(slider).toHaveValue('80');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    fireEvent.change(slider, { target: { value: '78' } });
    await userEvent.click(screen.getByRole('button', { name: 'Update Skill' }));
    expect(current()).toEqual([{ name: 'Painting', level: 78 }]);
    expect(screen.getByRole('button', { name: 'Add Skill' })).toBeInTheDocument();
  });

  it('cancels update mode without changes and can remove a skill', async () => {
    render(<Harness initial={[{ name: 'Painting', level: 80 }]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit Painting, level 80' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('slider', { name: /proficiency/i })).toHaveValue('50');
    await userEvent.click(screen.getByRole('button', { name: 'Remove Painting' }));
    expect(current()).toEqual([]);
  });
});
