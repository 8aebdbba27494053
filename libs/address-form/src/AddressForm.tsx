/**
 * The address form: find the place by search (misc/place-autocomplete, then
 * misc/address-recommend), "Use current location" (only with the permission already granted:
 * @tiffin/contract `currentPosition`) or the map pin (misc/address-recommend by lat/lng: the
 * nearest locality names the place, the pin's exact point is kept), then the flat number, a
 * landmark and Home / Work / Other. Saving posts the address and hands the caller the saved
 * address and the customer's whole list, as the edge answered them; a refused save keeps the form
 * open with the edge's words. The caller owns the chrome around it (panel, dialog, step).
 */
import { customerMessage, edge } from '@tiffin/api-client';
import { currentPosition, DEFAULT_MAP_CENTRE, GeolocationError, getUserLocation, type Address, type PlaceSuggestion } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { formError, formFromAddress, placeFromRecommendation, toAddressInput, type AddressForm } from './address-form';
import { LazyPinMap, type MapPoint } from '@tiffin/map';
import './address-form.css';

const LOCATION_FAILED = 'Oops! something went wrong. Please try entering your location again';
const LOCATION_NOT_FOUND = 'Location not found';
/** Wait this long after the last keystroke before asking for suggestions. */
const SEARCH_DEBOUNCE_MS = 300;
/** Street level around a known place; city level around a mere starting point. */
const PLACE_ZOOM = 16;
const CITY_ZOOM = 12;

const ANNOTATIONS = [
  { value: 'HOME', label: 'Home' },
  { value: 'WORK', label: 'Work' },
  { value: 'OTHER', label: 'Other' },
] as const;

export interface AddressFormProps {
  /** The address being edited, or null for a new one. */
  address: Address | null;
  /** The save went through: the customer's addresses as the edge now has them, and the saved one. */
  onSaved: (addresses: Address[], saved: Address) => void;
  /** Shown beside the save button when given, for callers whose chrome has no close of its own. */
  onCancel?: () => void;
}

export function AddressForm({ address, onSaved, onCancel }: AddressFormProps) {
  const [form, setForm] = useState<AddressForm>(() => formFromAddress(address));
  const [query, setQuery] = useState('');
  const [suggestions, setSuggestions] = useState<PlaceSuggestion[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Where the customer dropped the pin, while that point is being resolved. */
  const [droppedPin, setDroppedPin] = useState<MapPoint | null>(null);
  /** The map starts at the picked place, else the delivery location, else the city centre. */
  const [start] = useState(() => {
    const known = form.place ?? getUserLocation();
    return known ? { pin: { lat: known.lat, lng: known.lng }, zoom: PLACE_ZOOM } : { pin: { ...DEFAULT_MAP_CENTRE }, zoom: CITY_ZOOM };
  });
  /** Only the latest lookup may change the picked place (a quick second drop wins over the first). */
  const lookup = useRef(0);
  const update = (patch: Partial<AddressForm>) => setForm((f) => ({ ...f, ...patch }));

  useEffect(() => {
    const input = query.trim();
    if (input.length < 2) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      edge.placeAutocomplete(input, { signal: controller.signal }).then(
        (found) => setSuggestions(found),
        () => {
          if (!controller.signal.aborted) setSuggestions([]);
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const resolve = useCallback(async (query: { placeId: string } | { lat: number; lng: number }) => {
    const id = ++lookup.current;
    setBusy(true);
    setError(null);
    try {
      const [place] = await edge.addressRecommend(query);
      if (!place) throw new Error(LOCATION_NOT_FOUND);
      if (id !== lookup.current) return;
      setForm((f) => ({ ...f, place: placeFromRecommendation(place, 'lat' in query ? query : undefined) }));
      setQuery('');
      setSuggestions([]);
    } catch (e) {
      if (id !== lookup.current) return;
      setError(e instanceof Error && e.message === LOCATION_NOT_FOUND ? LOCATION_NOT_FOUND : LOCATION_FAILED);
    } finally {
      if (id === lookup.current) {
        // A failed drop puts the pin back on the picked place, so pin and address never disagree.
        setDroppedPin(null);
        setBusy(false);
      }
    }
  }, []);

  const movePin = useCallback(
    (point: MapPoint) => {
      setDroppedPin(point);
      void resolve(point);
    },
    [resolve],
  );
  const pin = droppedPin ?? (form.place ? { lat: form.place.lat, lng: form.place.lng } : start.pin);

  const useCurrentLocation = async () => {
    setError(null);
    try {
      await resolve(await currentPosition());
    } catch (e) {
      setError(e instanceof GeolocationError ? e.message : LOCATION_FAILED);
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const problem = formError(form);
    if (problem || !form.place) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      const reply = await edge.saveAddress(toAddressInput({ ...form, place: form.place }));
      onSaved(reply.addresses, reply.address);
    } catch (e) {
      setError(customerMessage(e));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void save(e)} className="addr-form" noValidate>
      <label className="addr-form__field">
        <span>Search for area, street name…</span>
        <input name="place" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" />
      </label>
      {suggestions.length > 0 ? (
        <ul className="addr-suggestions" aria-label="Suggestions">
          {suggestions.map((s) => (
            <li key={s.place_id}>
              <button type="button" className="addr-suggestion" onClick={() => void resolve({ placeId: s.place_id })}>
                <strong>{s.structured_formatting.main_text}</strong>
                <span className="addr-muted"> {s.structured_formatting.secondary_text}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <Button variant="secondary" onClick={() => void useCurrentLocation()} disabled={busy}>
        Use current location
      </Button>
      <LazyPinMap pin={pin} zoom={start.zoom} onMove={movePin} />
      {form.place ? (
        <p className="addr-picked" data-testid="picked-place">
          {form.place.address}
        </p>
      ) : null}
      <label className="addr-form__field">
        <span>Door / Flat No.</span>
        <input name="flat_no" value={form.flatNo} onChange={(e) => update({ flatNo: e.target.value })} />
      </label>
      <label className="addr-form__field">
        <span>Landmark</span>
        <input name="landmark" value={form.landmark} onChange={(e) => update({ landmark: e.target.value })} />
      </label>
      <fieldset className="addr-annotations">
        <legend>Save as</legend>
        {ANNOTATIONS.map((a) => (
          <label key={a.value} className="addr-annotation">
            <input type="radio" name="annotation" value={a.value} checked={form.annotation === a.value} onChange={() => update({ annotation: a.value })} />
            {a.label}
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="addr-form__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="addr-form__actions">
        <Button type="submit" block disabled={busy}>
          SAVE ADDRESS &amp; PROCEED
        </Button>
        {onCancel ? (
          <Button variant="link" onClick={onCancel} disabled={busy}>
            CANCEL
          </Button>
        ) : null}
      </div>
    </form>
  );
}
