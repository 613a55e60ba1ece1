/** The journal's filter bar: free text, operation, status class and session, applied in the page. */
import { useMemo } from 'preact/hooks';
import type { JournalEntry } from './api.js';
import { STATUS_CLASSES, STATUS_CLASS_LABELS, inStatusClass, matchesText, type StatusClass } from './format.js';

/** What the journal is filtered by; empty strings match everything. */
export interface Filters {
  operation: string;
  status: '' | StatusClass;
  session: string;
  text: string;
}

/** No filter: every entry shows. */
export const NO_FILTERS: Filters = { operation: '', status: '', session: '', text: '' };

/** The entries that match `filters`, in their order (the same array when no filter is set). */
export function applyFilters(entries: readonly JournalEntry[], filters: Filters): readonly JournalEntry[] {
  const needle = filters.text.trim().toLowerCase();
  if (filters.operation === '' && filters.status === '' && filters.session === '' && needle === '') return entries;
  return entries.filter(
    (e) =>
      (filters.operation === '' || (filters.operation === 'none' ? e.operation === null : e.operation === filters.operation)) &&
      (filters.status === '' || inStatusClass(e, filters.status)) &&
      (filters.session === '' || e.session === filters.session) &&
      matchesText(e, needle),
  );
}

/** The filter form; its selects offer the operations and sessions seen in `entries`. */
export function FilterBar({ entries, filters, onChange }: { entries: readonly JournalEntry[]; filters: Filters; onChange: (f: Filters) => void }) {
  const operations = useMemo(() => [...new Set(entries.map((e) => e.operation ?? 'none'))].sort(), [entries]);
  const sessions = useMemo(() => [...new Set(entries.map((e) => e.session))].sort(), [entries]);
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const withCurrent = (values: string[], current: string) => (current === '' || values.includes(current) ? values : [...values, current]);
  return (
    <form class="filters" role="search" aria-label="Filter the requests" onSubmit={(e) => e.preventDefault()}>
      <div class="field grow">
        <label for="filter-text">Search</label>
        <input id="filter-text" type="search" placeholder="path, model, scenario, message…" value={filters.text} onInput={(e) => set({ text: e.currentTarget.value })} />
      </div>
      <div class="field">
        <label for="filter-operation">Operation</label>
        <select id="filter-operation" value={filters.operation} onChange={(e) => set({ operation: e.currentTarget.value })}>
          <option value="">all</option>
          {withCurrent(operations, filters.operation).map((op) => (
            <option key={op} value={op}>
              {op === 'none' ? 'none (unknown path)' : op}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-status">Status</label>
        <select id="filter-status" value={filters.status} onChange={(e) => set({ status: e.currentTarget.value as Filters['status'] })}>
          <option value="">all</option>
          {STATUS_CLASSES.map((cls) => (
            <option key={cls} value={cls}>
              {STATUS_CLASS_LABELS[cls]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="filter-session">Session</label>
        <select id="filter-session" value={filters.session} onChange={(e) => set({ session: e.currentTarget.value })}>
          <option value="">all</option>
          {withCurrent(sessions, filters.session).map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}

