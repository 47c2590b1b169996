import { BellPlus } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import type { AlertInput } from '@/features/alerts/api/get-alerts';
import { useSaveAlert } from '@/features/alerts/api/save-alert';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/** "Alert me about tasks like these": saves the current search as an alert. */
export function AlertMeButton({ input }: { input: AlertInput }) {
  const save = useSaveAlert();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="outline"
        size="sm"
        disabled={save.isPending}
        onClick={() =>
          save.mutate(
            { input },
            {
              onSuccess: (alert) =>
                toast({ title: 'Alert saved', description: `We’ll tell you about new tasks like these (“${alert.name}”).`, variant: 'success' }),
              onError: (error) => toast({ title: 'Could not save the alert', description: errorMessage(error, 'Please try again'), variant: 'error' }),
            },
          )
        }
      >
        <BellPlus aria-hidden className="h-4 w-4" />
        Alert me about tasks like these
      </Button>
      <Link to="/settings/alerts" className="text-sm font-medium text-brand-700 hover:underline">
        Manage alerts
      </Link>
    </div>
  );
}
