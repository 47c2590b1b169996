/**
 * The hand-written API types checked against the server's OpenAPI document, so the two cannot
 * drift: `src/lib/api-schema.d.ts` is generated from `openapi.json` (`npm run api:types`), and
 * `npm test` / the build type-check this file. Each line says "what the server answers fits the
 * type the app reads" (or, for requests, "what the app sends fits what the server takes").
 * A new API call adds its line here.
 */
import type { SignInProvider } from '@/features/auth/api/get-sign-in-providers';
import type { CancellationRequest } from '@/features/cancellation/api/get-cancellation';
import type { Category } from '@/features/categories/api/get-categories';
import type { DisputeCase } from '@/features/disputes/api/get-admin-disputes';
import type { Dispute } from '@/features/disputes/api/get-dispute';
import type { ResolveDisputeInput } from '@/features/disputes/api/resolve-dispute';
import type { ReportInput, ReportView } from '@/features/moderation/api/create-report';
import type { AuditItem } from '@/features/moderation/api/get-audit-log';
import type { ProviderCall } from '@/features/moderation/api/get-provider-calls';
import type { AuthorSummary, QueueItem } from '@/features/moderation/api/get-report-queue';
import type { UserRecord } from '@/features/moderation/api/get-user-record';
import type { ResolveReportInput } from '@/features/moderation/api/resolve-report';
import type { SuspendInput } from '@/features/moderation/api/suspend-user';
import type { MyOffer } from '@/features/my-tasks/api/get-my-offers';
import type { NotificationsPage } from '@/features/notifications/api/get-notifications';
import type { CheckoutSession } from '@/features/payments/api/create-checkout-session';
import type { TaskPayment } from '@/features/payments/api/get-task-payment';
import type { VerifyParams, VerifyResult } from '@/features/payments/api/verify-payment';
import type { PortfolioItem, PublicProfile } from '@/features/profiles/api/get-profile';
import type { PortfolioChange } from '@/features/profiles/api/portfolio';
import type { LinkedIdentities } from '@/features/settings/api/get-identities';
import type { TaskMessage } from '@/features/task-progress/api/get-messages';
import type { MyVerification } from '@/features/verification/api/get-verification';
import type { IdentitySession } from '@/features/verification/api/start-identity-verification';
import type { CodeSent } from '@/features/verification/api/start-phone-verification';
import type { paths } from '@/lib/api-schema';
import type { Profile, Session, User } from '@/lib/auth/types';
import type { Offer, Page, Question, TaskDetail, TaskPhoto, TaskSummary, TasksPage } from '@/lib/marketplace';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Json<Content> = Content extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body `method path` answers with `status`. */
export type ApiResponse<Path extends keyof paths, M extends Method, Status extends number = 200> =
  NonNullable<paths[Path][M]> extends { responses: infer Responses }
    ? Status extends keyof Responses
      ? Json<Responses[Status]>
      : never
    : never;

/** The JSON body `method path` takes. */
export type ApiRequest<Path extends keyof paths, M extends Method> =
  NonNullable<paths[Path][M]> extends { requestBody?: infer Body } ? Json<NonNullable<Body>> : never;

/** `true` when every `Actual` is an `Expected` (and neither is `never`, which fits anything). */
type Fits<Actual, Expected> = [Actual] extends [never] ? false : [Actual] extends [Expected] ? true : false;
type Check<T extends true> = T;

export type ApiContract = [
  Check<Fits<ApiResponse<'/api/auth/login', 'post'>, Session>>,
  Check<Fits<ApiResponse<'/api/auth/refresh', 'post'>, Session>>,
  Check<Fits<ApiResponse<'/api/auth/providers', 'get'>, SignInProvider[]>>,
  Check<Fits<ApiResponse<'/api/auth/oidc/complete-signup', 'post', 201>, Session>>,
  Check<Fits<ApiResponse<'/api/me/identities', 'get'>, LinkedIdentities>>,
  Check<Fits<ApiResponse<'/api/auth/verify', 'post'>, { user: User }>>,
  Check<Fits<ApiResponse<'/api/auth/signup', 'post', 201>, { user: User; message?: string }>>,
  Check<Fits<ApiResponse<'/api/me', 'get'>, { user: User; profile: Profile }>>,
  Check<Fits<ApiResponse<'/api/me/profile', 'patch'>, Profile>>,
  Check<Fits<ApiResponse<'/api/me/become-tasker', 'post'>, Profile>>,
  Check<Fits<ApiResponse<'/api/me/avatar', 'post'>, { avatar_url: string }>>,
  Check<Fits<ApiResponse<'/api/uploads/avatar', 'post', 201>, { avatar_url: string }>>,
  Check<Fits<ApiResponse<'/api/profiles/{id}', 'get'>, PublicProfile>>,
  Check<Fits<ApiResponse<'/api/me/portfolio', 'post', 201>, PortfolioItem>>,
  Check<Fits<ApiResponse<'/api/me/portfolio/{id}', 'patch'>, PortfolioItem>>,
  Check<Fits<Omit<PortfolioChange, 'id'>, ApiRequest<'/api/me/portfolio/{id}', 'patch'>>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/photos', 'post', 201>, TaskPhoto>>,
  Check<Fits<ApiResponse<'/api/realtime/ticket', 'post'>, { ticket: string }>>,
  Check<Fits<ApiResponse<'/api/categories', 'get'>, Category[]>>,
  Check<Fits<ApiResponse<'/api/tasks', 'get'>, TasksPage>>,
  Check<Fits<ApiResponse<'/api/tasks', 'post', 201>, TaskDetail>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}', 'get'>, TaskDetail>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}', 'patch'>, TaskDetail>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/cancel', 'post'>, TaskSummary>>,
  Check<Fits<ApiResponse<'/api/me/tasks', 'get'>, { items: TaskSummary[] }>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/offers', 'get'>, Page<Offer>>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/offers', 'post', 201>, Offer>>,
  Check<Fits<ApiResponse<'/api/offers/{id}', 'patch'>, Offer>>,
  Check<Fits<ApiResponse<'/api/offers/{id}/withdraw', 'post'>, Offer>>,
  Check<Fits<ApiResponse<'/api/me/offers', 'get'>, { items: MyOffer[] }>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/questions', 'get'>, Page<Question>>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/questions', 'post', 201>, Question>>,
  Check<Fits<ApiResponse<'/api/questions/{id}/answer', 'post'>, Question>>,
  Check<Fits<ApiResponse<'/api/notifications', 'get'>, NotificationsPage>>,
  Check<Fits<ApiResponse<'/api/payments/checkout-session', 'post'>, CheckoutSession>>,
  Check<Fits<VerifyParams, ApiRequest<'/api/payments/verify', 'post'>>>,
  Check<Fits<ApiResponse<'/api/payments/verify', 'post'>, VerifyResult>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/payment', 'get'>, TaskPayment>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/messages', 'get'>, { items: TaskMessage[]; read_up_to: string | null; read_at: string | null }>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/messages', 'post', 201>, TaskMessage>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/cancellation', 'post', 201>, CancellationRequest>>,
  Check<Fits<ApiResponse<'/api/tasks/{id}/dispute', 'post', 201>, Dispute>>,
  Check<Fits<ApiResponse<'/api/admin/disputes', 'get'>, { items: DisputeCase[] }>>,
  Check<Fits<ResolveDisputeInput, ApiRequest<'/api/admin/disputes/{id}/resolve', 'post'>>>,
  Check<Fits<ApiResponse<'/api/admin/disputes/{id}/resolve', 'post'>, Dispute>>,
  Check<Fits<ReportInput, ApiRequest<'/api/reports', 'post'>>>,
  Check<Fits<ApiResponse<'/api/reports', 'post', 201>, ReportView>>,
  Check<Fits<ApiResponse<'/api/admin/reports', 'get'>, Page<QueueItem>>>,
  Check<Fits<ResolveReportInput, ApiRequest<'/api/admin/reports/{id}/resolve', 'post'>>>,
  Check<Fits<ApiResponse<'/api/admin/reports/{id}/resolve', 'post'>, ReportView>>,
  Check<Fits<ApiResponse<'/api/admin/users', 'get'>, Page<AuthorSummary>>>,
  Check<Fits<ApiResponse<'/api/admin/users/{id}', 'get'>, UserRecord>>,
  Check<Fits<SuspendInput, ApiRequest<'/api/admin/users/{id}/suspend', 'post'>>>,
  Check<Fits<{ note: string | null }, ApiRequest<'/api/admin/users/{id}/reinstate', 'post'>>>,
  Check<Fits<ApiResponse<'/api/admin/audit', 'get'>, Page<AuditItem>>>,
  Check<Fits<ApiResponse<'/api/admin/provider-calls', 'get'>, { items: ProviderCall[] }>>,
  Check<Fits<{ phone: string }, ApiRequest<'/api/me/phone/start', 'post'>>>,
  Check<Fits<ApiResponse<'/api/me/phone/start', 'post', 202>, CodeSent>>,
  Check<Fits<{ code: string }, ApiRequest<'/api/me/phone/verify', 'post'>>>,
  Check<Fits<ApiResponse<'/api/me/phone/verify', 'post'>, Profile>>,
  Check<Fits<ApiResponse<'/api/me/identity/session', 'post'>, IdentitySession>>,
  Check<Fits<ApiResponse<'/api/me/verification', 'get'>, MyVerification>>,
];
