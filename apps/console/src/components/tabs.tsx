// An accessible tab list (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs and select them;
// only the selected tab is in the tab order; each panel is labelled by its tab.
import type { ComponentChildren } from 'preact';

export interface TabSpec {
  id: string;
  label: string;
  /** A short note shown after the label (e.g. "2 errors"), read as part of the tab's name. */
  note?: string;
}

export function TabList({
  label,
  tabs,
  active,
  onSelect,
  idPrefix,
}: {
  label: string;
  tabs: TabSpec[];
  active: string;
  onSelect: (id: string) => void;
  idPrefix: string;
}) {
  const focusTab = (id: string) => {
    onSelect(id);
    // The button exists already; it gets the focus once the selection re-rendered.
    requestAnimationFrame(() => document.getElementById(`${idPrefix}-tab-${id}`)?.focus());
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === active);
    let next = -1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = (at + 1) % tabs.length;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = (at - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    focusTab(tabs[next].id);
  };
  return (
    <div class="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t.id}`}
          aria-selected={t.id === active}
          aria-controls={`${idPrefix}-panel-${t.id}`}
          tabIndex={t.id === active ? 0 : -1}
          onClick={() => onSelect(t.id)}
        >
          {t.label}
          {t.note && <span class="tab-note"> ({t.note})</span>}
        </button>
      ))}
    </div>
  );
}

/** A tab's panel: kept in the page when not selected (its fields stay part of the form), hidden from view. */
export function TabPanel({
  id,
  active,
  idPrefix,
  children,
}: {
  id: string;
  active: string;
  idPrefix: string;
  children: ComponentChildren;
}) {
  return (
    <div
      role="tabpanel"
      class="tab-panel"
      id={`${idPrefix}-panel-${id}`}
      aria-labelledby={`${idPrefix}-tab-${id}`}
      hidden={id !== active}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
