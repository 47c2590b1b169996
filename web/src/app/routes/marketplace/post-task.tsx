import { PostTaskWizard } from '@/features/post-task/components/post-task-wizard';
import { usePageTitle } from '@/lib/use-page-title';

export function PostTaskRoute() {
  usePageTitle('Post a Task');
  return <PostTaskWizard />;
}
