/**
 * Dependencies (issue 26): what an item uses, what uses it, and the organization's view. These are
 * the local portal's local-only operations (src/shared/contract/dependencies.ts); other portals do
 * not have them, and the console builds the same answers in the browser instead
 * (src/client/lib/dependencies). Only call these when portals/self says `localExtras`.
 */
import type { DependencyAnswer, DependencySummaryAnswer, DependencyView } from '../../shared/contract/dependencies.ts';
import { request, type RequestOptions } from './request.ts';

export type { DependencyAnswer, DependencySummaryAnswer, DependencyView };

type ReadOptions = Pick<RequestOptions, 'signal'>;
const seg = encodeURIComponent;

export interface DependencyReadParams {
  /** Follow references further than one step. */
  transitive?: boolean;
  /** With transitive: how many steps at most (1–16). */
  maxDepth?: number;
}

/** The organization view's question: the same whether the portal or the browser graph answers it. */
export interface DependencySummaryReadParams {
  view: DependencyView;
  /** Usernames (case-insensitive). */
  owners?: readonly string[];
  /** Exact item types. */
  types?: readonly string[];
  /** Epoch ms: only items last modified before it. */
  modifiedBefore?: number;
  /** usedByMany: at least this many dependents (default 2). */
  minDependents?: number;
  /** 1-based (default 1). */
  start?: number;
  /** Default 10, at most 100 (as search pages). */
  num?: number;
}

/** `GET content/items/<id>/dependencies`: what the item uses. */
export function getItemDependencies(itemId: string, params: DependencyReadParams = {}, options: ReadOptions = {}): Promise<DependencyAnswer> {
  return request<DependencyAnswer>(`content/items/${seg(itemId)}/dependencies`, { ...params }, { ...options, method: 'GET' });
}

/** `GET content/items/<id>/dependents`: what uses the item (what breaks when it changes). */
export function getItemDependents(itemId: string, params: DependencyReadParams = {}, options: ReadOptions = {}): Promise<DependencyAnswer> {
  return request<DependencyAnswer>(`content/items/${seg(itemId)}/dependents`, { ...params }, { ...options, method: 'GET' });
}

/** `GET portals/<orgId>/dependencies`: clean-up candidates (`unused`) and most used items (`usedByMany`). */
export function getDependencySummary(orgId: string, params: DependencySummaryReadParams, options: ReadOptions = {}): Promise<DependencySummaryAnswer> {
  return request<DependencySummaryAnswer>(`portals/${seg(orgId)}/dependencies`, { ...params }, { ...options, method: 'GET' });
}
