const providers = ['Google', 'Facebook', 'Apple'];

/** Present per the spec, but social sign-in is not offered yet, so the buttons say so. */
export function SocialButtons() {
  return (
    <div>
      <div className="relative my-6 text-center text-xs uppercase tracking-wider text-slate-500">
        <span className="relative z-10 bg-white px-3">or continue with</span>
        <span className="absolute inset-x-0 top-1/2 border-t border-slate-200" aria-hidden="true" />
      </div>
      <div className="grid grid-cols-3 gap-2">
        {providers.map((provider) => (
          <button
            key={provider}
            type="button"
            aria-disabled="true"
            title={`${provider} sign-in is coming soon`}
            className="h-11 cursor-not-allowed rounded-lg border border-slate-300 bg-white text-sm font-medium text-slate-500"
          >
            {provider}
          </button>
        ))}
      </div>
      <p className="mt-2 text-center text-xs text-slate-500">Social sign-in is coming soon.</p>
    </div>
  );
}
