import { useId, useState } from 'react';

export const HOURLY_RATE = 35;
export const MAX_HOURS = 40;
export const DEFAULT_HOURS = 20;

/** Weekly hours × the average hourly rate × 4 weeks; 20 h/week gives the spec's $2,800 sample. */
export function monthlyEarnings(hoursPerWeek: number, rate = HOURLY_RATE) {
  return hoursPerWeek * rate * 4;
}

export function EarningsCalculator() {
  const id = useId();
  const [hours, setHours] = useState(DEFAULT_HOURS);
  return (
    <div className="rounded-2xl bg-white p-6 text-slate-800 shadow-xl ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">Estimate your earnings</h2>
      <label htmlFor={id} className="mt-4 flex justify-between text-sm font-medium">
        <span>Hours per week</span>
        <span>{hours} h</span>
      </label>
      <input
        id={id}
        type="range"
        min={1}
        max={MAX_HOURS}
        step={1}
        value={hours}
        onChange={(e) => setHours(Number(e.target.value))}
        className="mt-2 h-11 w-full accent-brand-700"
      />
      <p className="mt-4 text-sm text-slate-600">Potential monthly income</p>
      <p className="text-4xl font-extrabold text-brand-700" aria-live="polite">
        ${monthlyEarnings(hours).toLocaleString('en-AU')}
        {hours === DEFAULT_HOURS && '+'}
      </p>
      <p className="mt-2 text-xs text-slate-500">
        Based on an average of ${HOURLY_RATE}/hour. Taskers typically earn $25–45 per hour depending on the service and
        their reviews. A 10% service fee applies to each completed task.
      </p>
    </div>
  );
}
