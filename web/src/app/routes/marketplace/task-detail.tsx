import { Link, useParams } from 'react-router';

import { MarketplacePlaceholder } from '@/app/routes/marketplace/placeholder';

export function TaskDetailRoute() {
  const { taskId } = useParams();
  return (
    <MarketplacePlaceholder title="Task details">
      <p>Task {taskId}</p>
      <Link to="/tasks" className="font-semibold text-brand-700 hover:underline">
        ← Back to tasks
      </Link>
    </MarketplacePlaceholder>
  );
}
