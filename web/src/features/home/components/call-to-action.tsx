import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';

export function CallToAction() {
  return (
    <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <div className="rounded-3xl bg-slate-900 px-6 py-12 text-center text-white sm:px-12">
        <h2 className="text-2xl font-bold sm:text-3xl">Ready to get your to-do list done?</h2>
        <p className="mx-auto mt-3 max-w-2xl text-slate-300">
          Join the people who hand their jobs to trusted local taskers — or turn your skills into $25–45 an hour.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/post-task" className={buttonClasses('secondary', 'lg')}>
            Post a Task
          </Link>
          <Link to="/tasks" className={buttonClasses('outline-light', 'lg')}>
            Browse Tasks
          </Link>
        </div>
      </div>
    </section>
  );
}
