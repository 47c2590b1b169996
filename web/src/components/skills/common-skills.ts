export const COMMON_SKILLS = [
  'Plumbing',
  'Electrical',
  'Carpentry',
  'Painting',
  'Drywall Repair',
  'Flooring',
  'Tiling',
  'Furniture Assembly',
  'Appliance Installation',
  'Garden & Landscaping',
  'HVAC',
  'Window Repair',
  'Door Installation',
  'Fence Installation',
  'Pressure Washing',
  'Gutter Cleaning',
  'Roof Repair',
  'Deck Building',
  'Bathroom Remodel',
  'Kitchen Remodel',
];

export const SKILLS_SHOWN = 8;
export const DEFAULT_SKILL_LEVEL = 50;

export function skillLevelLabel(level: number): string {
  if (level <= 25) return 'Beginner';
  if (level <= 50) return 'Intermediate';
  if (level <= 75) return 'Advanced';
  return 'Expert';
}
