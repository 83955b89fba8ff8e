/**
 * The member lifecycle's public surface outside its routes: the due work the runner
 * (jobs/memberLifecycle.ts) calls, one function per step (due.ts: each claims its rows with FOR
 * UPDATE SKIP LOCKED and acts in the same transaction), and when the next step falls due.
 */
export { expireDue, nextDue, runDuePolicies, warnDueExpirations, warningMsOf } from './due.ts';
