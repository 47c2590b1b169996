import {
  Camera,
  Car,
  ChefHat,
  ClipboardList,
  GraduationCap,
  Languages,
  Laptop,
  Leaf,
  Package,
  Paintbrush,
  PartyPopper,
  PawPrint,
  PenTool,
  Sofa,
  Sparkles,
  Truck,
  Wrench,
  type LucideIcon,
} from 'lucide-react';

const icons: Record<number, LucideIcon> = {
  1: Sparkles,
  2: Sofa,
  3: Wrench,
  4: Package,
  5: Truck,
  6: Leaf,
  7: Paintbrush,
  8: PawPrint,
  9: Laptop,
  10: Camera,
  11: PenTool,
  12: Languages,
  13: Car,
  14: PartyPopper,
  15: ChefHat,
  16: GraduationCap,
};

/** The category's icon; unknown categories get the spec's default clipboard. */
export function CategoryIcon({ id, className }: { id: number; className?: string }) {
  const Icon = icons[id] ?? ClipboardList;
  return <Icon aria-hidden="true" className={className ?? 'h-6 w-6'} strokeWidth={1.75} />;
}
