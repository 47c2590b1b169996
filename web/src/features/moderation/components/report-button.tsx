import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import type { ReportTarget } from '@/components/moderation/report-action';
import { Button, buttonClasses } from '@/components/ui/button';
import { NOUNS, ReportDialog } from '@/features/moderation/components/report-dialog';
import { fromLocation } from '@/lib/auth/redirect';
import { useAuth } from '@/lib/auth/use-auth';

/** A small Report action; signed out, it leads to sign-in and back. */
export function ReportButton({ target, label = 'Report' }: { target: ReportTarget; label?: string }) {
  const { user } = useAuth();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const name = `Report this ${NOUNS[target.type]}`;
  if (!user) {
    return (
      <Link to="/login" state={fromLocation(location)} aria-label={name} className={buttonClasses('ghost', 'sm')}>
        {label}
      </Link>
    );
  }
  return (
    <>
      <Button variant="ghost" size="sm" aria-label={name} onClick={() => setOpen(true)}>
        {label}
      </Button>
      <ReportDialog open={open} onClose={() => setOpen(false)} target={target} />
    </>
  );
}
