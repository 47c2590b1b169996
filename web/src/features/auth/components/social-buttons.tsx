import { signInStartUrl, useSignInProviders } from '@/features/auth/api/get-sign-in-providers';

/** "Continue with …" for each provider the server is configured for; nothing when there is none. */
export function SocialButtons({ redirect = '/' }: { redirect?: string }) {
  const { data: providers = [] } = useSignInProviders();
  if (!providers.length) return null;
  return (
    <div>
      <div className="relative my-6 text-center text-xs uppercase tracking-wider text-slate-600">
        <span className="relative z-10 bg-white px-3">or continue with</span>
        <span className="absolute inset-x-0 top-1/2 border-t border-slate-200" aria-hidden="true" />
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        {providers.map((provider) => (
          <a
            key={provider.id}
            href={signInStartUrl(provider.id, redirect)}
            className="flex h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            Continue with {provider.name}
          </a>
        ))}
      </div>
    </div>
  );
}
