/**
 * The delivery-location search, shared by the landing page and the location sidebar: an ARIA
 * combobox over `misc/place-autocomplete` suggestions (debounced, stale replies dropped) and the
 * device position. Choosing stores the place as the delivery location through `resolve.ts`
 * (cookie `userLocation` and `location:changed`); `onChosen` then lets the host react (the sidebar
 * closes, the landing page simply follows `location:changed`).
 *
 * Two layouts, one behaviour:
 * - `landing`: one bar with 'Locate Me' inside the field and a 'FIND FOOD' button;
 *   a device-position failure is a toast, as the bar has no room for it.
 * - `panel` (the sidebar): the field alone (Enter finds), 'Get current location' below it; a
 *   device-position failure is shown in the panel, where the visitor is looking.
 */
import { edge } from '@tiffin/api-client';
import { currentPosition, GEOLOCATION_MESSAGES, GeolocationError, showToast, type PlaceSuggestion, type UserLocation } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { chooseCoordinates, choosePlace, LOCATION_MESSAGES } from './resolve';
import { CLOSED_LIST, firstOrActive, isSuggestionKey, reduceSuggestionKey, type SuggestionListState } from './suggestion-keys';
import './location.css';

/** Spec gives none; ~200 ms keeps typing smooth without a request per keystroke. */
const AUTOCOMPLETE_DEBOUNCE_MS = 200;

interface Suggestions {
  /** The trimmed input these answer; FIND FOOD never uses suggestions for older text. */
  query: string;
  items: PlaceSuggestion[];
}

interface PlaceSearchProps {
  variant: 'landing' | 'panel';
  /** Called with the stored location after a successful choice. */
  onChosen?: (location: UserLocation) => void;
  /** The text field, for a host that manages focus (the sidebar focuses it on opening). */
  inputRef?: RefObject<HTMLInputElement | null>;
}

export function PlaceSearch({ variant, onChosen, inputRef }: PlaceSearchProps) {
  const id = useId();
  const listboxId = `${id}-listbox`;
  const ownInputRef = useRef<HTMLInputElement>(null);
  const input = inputRef ?? ownInputRef;
  const [query, setQuery] = useState('');
  const [suggestions, setSuggestions] = useState<Suggestions>({ query: '', items: [] });
  const [list, setList] = useState<SuggestionListState>(CLOSED_LIST);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<'resolving' | 'locating' | null>(null);
  const panel = variant === 'panel';

  useEffect(() => {
    const text = query.trim();
    if (!text) {
      setSuggestions({ query: '', items: [] });
      setList(CLOSED_LIST);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      edge.placeAutocomplete(text, { signal: controller.signal }).then(
        (items) => {
          // A reply for text the visitor has since changed is stale: the cleanup aborted it.
          if (controller.signal.aborted) return;
          setSuggestions({ query: text, items });
          setList({ open: items.length > 0, active: -1 });
        },
        () => {
          if (controller.signal.aborted) return;
          setSuggestions({ query: text, items: [] });
          setList(CLOSED_LIST);
        },
      );
    }, AUTOCOMPLETE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const current = suggestions.query === query.trim() ? suggestions.items : [];
  const open = list.open && current.length > 0;

  const choose = async (suggestion: PlaceSuggestion) => {
    setBusy('resolving');
    setMessage(null);
    setList(CLOSED_LIST);
    let location: UserLocation;
    try {
      location = await choosePlace(suggestion.place_id);
    } catch {
      setMessage(LOCATION_MESSAGES.failed);
      setBusy(null);
      return;
    }
    onChosen?.(location);
  };

  const findFood = async () => {
    const text = query.trim();
    if (!text) {
      setMessage(LOCATION_MESSAGES.empty);
      input.current?.focus();
      return;
    }
    let items = current;
    if (items.length === 0) {
      // Typed faster than the debounce (or the list failed): ask now instead of doing nothing.
      setBusy('resolving');
      try {
        items = await edge.placeAutocomplete(text);
      } catch {
        setBusy(null);
        setMessage(LOCATION_MESSAGES.failed);
        return;
      }
      setBusy(null);
    }
    const suggestion = items[firstOrActive(list, items.length)];
    if (!suggestion) {
      setMessage(LOCATION_MESSAGES.notFound);
      return;
    }
    await choose(suggestion);
  };

  const locateMe = async () => {
    setBusy('locating');
    setMessage(null);
    let location: UserLocation;
    try {
      location = await chooseCoordinates(await currentPosition());
    } catch (error) {
      const text = error instanceof GeolocationError ? error.message : GEOLOCATION_MESSAGES.unavailable;
      if (panel) setMessage(text);
      else showToast({ text, status: 'error' });
      setBusy(null);
      return;
    }
    onChosen?.(location);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!isSuggestionKey(event.key)) return;
    const { state, command } = reduceSuggestionKey({ ...list, open }, event.key, current.length);
    if (event.key !== 'Escape' || open) event.preventDefault();
    // Escape on an open list closes the list only; the next Escape reaches the sidebar and closes it.
    if (event.key === 'Escape' && open) event.stopPropagation();
    setList(state);
    if (command?.type === 'choose') void choose(current[command.index]!);
    else if (command?.type === 'find') void findFood();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void findFood();
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  const locating = busy === 'locating';

  return (
    <form className={panel ? 'disc-locate disc-locate--panel' : 'disc-locate'} role="search" aria-label="Delivery location" onSubmit={onSubmit}>
      <div className="disc-locate__bar">
        <div className="disc-locate__field">
          <input
            ref={input}
            className="disc-locate__input"
            type="text"
            role="combobox"
            aria-label={panel ? 'Search for area, street name…' : 'Enter your delivery location'}
            placeholder={panel ? 'Search for area, street name…' : 'Enter your delivery location'}
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listboxId}
            aria-activedescendant={open && list.active >= 0 ? optionId(list.active) : undefined}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? `${id}-message` : undefined}
            data-testid="location-input"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setMessage(null);
              setList({ open: true, active: -1 });
            }}
            onKeyDown={onKeyDown}
            onFocus={() => setList((s) => ({ ...s, open: true }))}
            onBlur={() => setList((s) => ({ ...s, open: false }))}
          />
          {panel ? null : (
            <button type="button" className="disc-locate__me" data-testid="locate-me" disabled={busy !== null} onClick={() => void locateMe()}>
              <span aria-hidden="true">◎</span> {locating ? 'Locating…' : 'Locate Me'}
            </button>
          )}
        </div>
        {panel ? null : (
          <Button type="submit" className="disc-locate__find" data-testid="find-food" disabled={busy !== null}>
            FIND FOOD
          </Button>
        )}
      </div>
      <ul id={listboxId} className="disc-locate__suggestions" role="listbox" aria-label="Location suggestions" hidden={!open}>
        {open
          ? current.map((suggestion, index) => (
              <li
                key={suggestion.place_id}
                id={optionId(index)}
                role="option"
                aria-selected={index === list.active}
                className={index === list.active ? 'disc-locate__option disc-locate__option--active' : 'disc-locate__option'}
                data-testid="location-suggestion"
                // Keep focus in the input so its blur does not close the list before the click.
                onMouseDown={(event) => event.preventDefault()}
                onMouseEnter={() => setList({ open: true, active: index })}
                onClick={() => void choose(suggestion)}
              >
                <span className="disc-locate__main">{suggestion.structured_formatting.main_text}</span>
                <span className="disc-locate__secondary">{suggestion.structured_formatting.secondary_text}</span>
              </li>
            ))
          : null}
      </ul>
      {panel ? (
        <button type="button" className="disc-locate__gps" data-testid="locate-me" disabled={busy !== null} onClick={() => void locateMe()}>
          <span aria-hidden="true">◎</span>
          <span>
            {locating ? 'Locating…' : 'Get current location'}
            <span className="disc-locate__gps-hint">Using GPS</span>
          </span>
        </button>
      ) : null}
      {message ? (
        <p id={`${id}-message`} className="disc-locate__message" role="alert">
          {message}
        </p>
      ) : null}
      {busy === 'resolving' ? (
        <p className="disc-locate__status" role="status">
          Finding restaurants near you…
        </p>
      ) : null}
    </form>
  );
}
