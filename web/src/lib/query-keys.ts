/*
 * Every TanStack Query key of the app, in one registry: a feature refreshes what another shows
 * (a payment refreshes `me`, a socket event patches a task) through these keys, never by importing
 * the other feature or spelling its key again. Keys are prefixes of one another where one
 * invalidation should reach them all (`me` reaches every `['me', …]` query). The lint
 * (`eslint.config.js`) refuses a key written anywhere else.
 *
 *   ['tasks', 'list', filters]      infinite browse pages {items, next_cursor}
 *   ['tasks', 'detail', id]         one task
 *   ['tasks', 'offers', id]         offers of a task
 *   ['tasks', 'messages', id]       private messages of an assigned task
 *   ['tasks', 'incoming']           TaskSummary[] posted since the browse list was loaded ("N new tasks")
 *   ['tasks', 'cancellation', id]   the pending cancellation request of an assigned task, or null
 *   ['tasks', 'dispute', id]        the task's latest dispute, or null
 *   ['tasks', 'payment', id]        the task's escrow payment as its parties see it
 *   ['tasks', 'price-increases', id] the task's price increases (its two parties)
 *   ['tasks', 'reschedules', id]    the task's date proposals (its two parties)
 *   ['tasks', 'reviews', id]        the task's reviews
 *   ['tasks', 'featured']           the home page's featured tasks
 *   ['admin', 'disputes', status]   the operators' dispute queue
 *   ['admin', 'reports', status]    the moderation queue (infinite pages)
 *   ['admin', 'users', …]           user search and one user's record
 *   ['admin', 'audit']              the audit log (infinite pages)
 *   ['admin', 'provider-calls']     parked provider calls
 *   ['me', …]                       everything about the signed-in user (dropped on sign-in/out)
 *   ['me', 'verification']          the user's phone and identity verification
 *   ['me', 'notifications']         {items, unread_count, next_cursor, has_more}; its 'pages' the full list
 *   ['me', 'identities']            the sign-in providers linked to the account
 *   ['sign-in-providers']           the social sign-in buttons this server offers
 */
export const queryKeys = {
  taskLists: ['tasks', 'list'] as const,
  taskList: (filters: unknown) => ['tasks', 'list', filters] as const,
  task: (id: string) => ['tasks', 'detail', id] as const,
  allOffers: ['tasks', 'offers'] as const,
  offers: (id: string) => ['tasks', 'offers', id] as const,
  allMessages: ['tasks', 'messages'] as const,
  messages: (id: string) => ['tasks', 'messages', id] as const,
  /** How far the other party has read a task's conversation (from the list, then `message.read`). */
  messageRead: (id: string) => ['message-read', id] as const,
  privacy: ['me', 'privacy'] as const,
  incoming: ['tasks', 'incoming'] as const,
  cancellation: (id: string) => ['tasks', 'cancellation', id] as const,
  dispute: (id: string) => ['tasks', 'dispute', id] as const,
  payment: (id: string) => ['tasks', 'payment', id] as const,
  priceIncreases: (id: string) => ['tasks', 'price-increases', id] as const,
  reschedules: (id: string) => ['tasks', 'reschedules', id] as const,
  taskReviews: (id: string) => ['tasks', 'reviews', id] as const,
  featuredTasks: ['tasks', 'featured'] as const,
  adminDisputes: ['admin', 'disputes'] as const,
  adminDisputesWith: (status: string) => ['admin', 'disputes', status] as const,
  adminReports: ['admin', 'reports'] as const,
  adminReportsWith: (status: string) => ['admin', 'reports', status] as const,
  adminUsers: ['admin', 'users'] as const,
  adminUserSearch: (query: string) => ['admin', 'users', 'search', query] as const,
  adminUser: (id: string) => ['admin', 'users', 'record', id] as const,
  adminAudit: ['admin', 'audit'] as const,
  adminProviderCalls: ['admin', 'provider-calls'] as const,
  me: ['me'] as const,
  myTasks: ['me', 'tasks'] as const,
  myOpenTasks: ['me', 'tasks', 'open'] as const,
  myOffers: ['me', 'offers'] as const,
  myTaskChanges: ['me', 'task-changes'] as const,
  myEarnings: ['me', 'earnings'] as const,
  myPayments: ['me', 'payments'] as const,
  payoutAccount: ['me', 'payout-account'] as const,
  myVerification: ['me', 'verification'] as const,
  alerts: ['me', 'alerts'] as const,
  identities: ['me', 'identities'] as const,
  notifications: ['me', 'notifications'] as const,
  notificationPages: ['me', 'notifications', 'pages'] as const,
  notificationPage: (page: { unreadOnly: boolean; after: string | null }) =>
    ['me', 'notifications', 'pages', page] as const,
  notificationSettings: ['notification-settings'] as const,
  pushDevices: ['push-devices'] as const,
  profile: (id: string | undefined) => ['profiles', id] as const,
  profileReviews: (id: string, after: string | null) => ['profiles', id, 'reviews', after] as const,
  categories: ['categories'] as const,
  site: ['site'] as const,
  signInProviders: ['sign-in-providers'] as const,
  geocode: (query: string) => ['geocode', query] as const,
  firstAlertPlace: (location: string) => ['geocode', 'first-alert', location] as const,
  verifyEmail: (token: string | null) => ['verify-email', token] as const,
  verifyPayment: (params: unknown) => ['payments', 'verify', params] as const,
};
