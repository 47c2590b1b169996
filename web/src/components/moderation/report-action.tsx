import { createContext, useContext, type ReactNode } from 'react';

export type ReportTargetType = 'task' | 'user' | 'offer' | 'question' | 'message' | 'review';
export type ReportTarget = { type: ReportTargetType; id: string };

type RenderReport = (target: ReportTarget) => ReactNode;

// Features show a Report action on their items without importing the moderation feature: the app
// provides what renders it.
const ReportActionContext = createContext<RenderReport | null>(null);

export function ReportActionProvider({ render, children }: { render: RenderReport; children: ReactNode }) {
  return <ReportActionContext.Provider value={render}>{children}</ReportActionContext.Provider>;
}

/** The Report action for one item, or nothing where the app provides none. */
export function ReportAction({ target }: { target: ReportTarget }) {
  const render = useContext(ReportActionContext);
  return render ? <>{render(target)}</> : null;
}
