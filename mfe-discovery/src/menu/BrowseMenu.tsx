/**
 * The category jump menu: a floating "Browse menu" button that lists the
 * categories shown now (after the veg filter and the search) with their item counts; picking one
 * scrolls to it and closes the list. Escape or a click outside closes it too.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { MenuSection } from './menu-rules';

export function BrowseMenu({ sections, onPick }: { sections: MenuSection[]; onPick: (sectionId: string) => void }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (sections.length === 0) return null;
  return (
    <div className="disc-browse" ref={ref}>
      {open ? (
        <ul id={listId} className="disc-browse__list" aria-label="Browse menu" data-testid="browse-menu-list">
          {sections.map((section) => (
            <li key={section.id}>
              <button
                type="button"
                className="disc-browse__item"
                onClick={() => {
                  setOpen(false);
                  onPick(section.id);
                }}
              >
                <span>{section.name}</span>
                <span className="disc-browse__count">{section.count}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <button
        type="button"
        className="disc-browse__button"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        data-testid="browse-menu"
        onClick={() => setOpen((o) => !o)}
      >
        {open ? 'Close' : 'Browse menu'}
      </button>
    </div>
  );
}
