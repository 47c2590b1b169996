import {
  Camera,
  Car,
  ChefHat,
  Clipboard,
  Flower,
  GraduationCap,
  Hammer,
  Laptop,
  Package,
  Paintbrush,
  Palette,
  PartyPopper,
  PawPrint,
  PenTool,
  Sofa,
  Sparkles,
  Truck,
  type LucideIcon,
} from 'lucide-react';

/** The API names its icons after lucide's; only these are bundled. */
const byName: Record<string, LucideIcon> = {
  sparkles: Sparkles,
  sofa: Sofa,
  hammer: Hammer,
  package: Package,
  truck: Truck,
  flower: Flower,
  paintbrush: Paintbrush,
  'paw-print': PawPrint,
  laptop: Laptop,
  camera: Camera,
  palette: Palette,
  'pen-tool': PenTool,
  car: Car,
  'party-popper': PartyPopper,
  'chef-hat': ChefHat,
  'graduation-cap': GraduationCap,
  clipboard: Clipboard,
};

/** The category's icon by name; unknown names get the spec's default clipboard. */
export function CategoryIcon({ name, className }: { name: string; className?: string }) {
  const Icon = byName[name] ?? Clipboard;
  return <Icon aria-hidden="true" className={className ?? 'h-6 w-6'} strokeWidth={1.75} />;
}
