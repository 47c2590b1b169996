import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { LocationInput } from '@/components/location/location-input';
import { buttonClasses } from '@/components/ui/button';

export const POPULAR_SERVICES = ['Home Repairs', 'Plumbing', 'Electrical Work', 'Painting', 'Carpentry', 'Garden Maintenance'];

export function Hero() {
  const navigate = useNavigate();
  const ids = useId();
  const [query, setQuery] = useState('');
  const [location, setLocation] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const params = new URLSearchParams();
    if (query.trim()) params.set('q', query.trim());
    if (location.trim()) params.set('location', location.trim());
    const search = params.toString();
    navigate(search ? `/tasks?${search}` : '/tasks');
  };

  return (
    <section className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 text-white">
      <div className="absolute -right-24 -top-24 h-96 w-96 rounded-full bg-brand-500/30 blur-3xl" aria-hidden="true" />
      <div className="relative mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24 lg:px-8">
        <div className="max-w-3xl">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">
            Get anything done by trusted local taskers
          </h1>
          <p className="mt-5 max-w-2xl text-lg text-brand-50">
            Post any task for free, get offers from people nearby in minutes, and pay securely — the money is only
            released when you're happy the job is done.
          </p>
        </div>
        <form onSubmit={onSubmit} role="search" aria-label="Find help" className="mt-8 grid max-w-4xl gap-3 rounded-2xl bg-white p-3 shadow-2xl sm:grid-cols-[1fr_14rem_auto]">
          <div>
            <label htmlFor={`${ids}-q`} className="sr-only">
              What do you need done?
            </label>
            <input
              id={`${ids}-q`}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="What do you need done?"
              className="h-12 w-full rounded-xl border border-slate-200 px-4 text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
            />
          </div>
          <LocationInput
            value={location}
            onChange={setLocation}
            label="Location"
            hideLabel
            placeholder="Suburb or postcode"
            inputClassName="h-12 w-full rounded-xl border border-slate-200 px-4 text-slate-900 placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
          />
          <button type="submit" className={buttonClasses('secondary', 'lg', 'h-12')}>
            Search
          </button>
        </form>
        <div className="mt-6">
          <p className="text-sm font-medium text-brand-100">Popular services:</p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {POPULAR_SERVICES.map((service) => (
              <li key={service}>
                <Link
                  to={`/tasks?q=${encodeURIComponent(service)}`}
                  className="inline-block rounded-full bg-white/10 px-3 py-1.5 text-sm text-white ring-1 ring-white/25 hover:bg-white/20"
                >
                  {service}
                </Link>
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-10 flex flex-wrap gap-3">
          <Link to="/post-task" className={buttonClasses('secondary', 'lg')}>
            Post a Task for free
          </Link>
          <Link to="/become-tasker" className={buttonClasses('outline-light', 'lg')}>
            Become a Tasker
          </Link>
        </div>
        <dl className="mt-12 grid max-w-2xl grid-cols-3 gap-6">
          {[
            ['5M+', 'tasks completed'],
            ['95%', 'customer satisfaction'],
            ['$35+', 'average hourly rate'],
          ].map(([value, label]) => (
            <div key={label}>
              <dt className="sr-only">{label}</dt>
              <dd className="text-2xl font-extrabold sm:text-3xl">{value}</dd>
              <dd className="text-sm text-brand-100" aria-hidden="true">
                {label}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
