export const mainNavigation = [
  { to: '/tasks', label: 'Browse Tasks' },
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/categories', label: 'Categories' },
];

export function accountLinks(userId: string, settingsPath = '/settings', isOperator = false) {
  return [
    { to: `/profile/${userId}`, label: 'Your Profile' },
    { to: '/post-task', label: 'Post a Task' },
    { to: '/my-tasks', label: 'My Tasks' },
    { to: '/notifications', label: 'Notifications' },
    { to: '/earnings', label: 'Earnings' },
    { to: '/payments', label: 'Payments' },
    { to: settingsPath, label: 'Account Settings' },
    { to: '/settings/alerts', label: 'Task Alerts' },
    ...(isOperator ? [{ to: '/admin', label: 'Operator console' }] : []),
  ];
}
