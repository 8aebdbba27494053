/**
 * The landing page (no delivery location yet): headline, and a location search that resolves a
 * place (place-autocomplete → address-recommend) into the shared userLocation cookie.
 */
import { edge } from '@tiffin/api-client';
import { setUserLocation, type PlaceSuggestion } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useState, type FormEvent } from 'react';

const HIGHLIGHTS = ['No minimum order', 'Live order tracking', 'Lightning-fast delivery'];

export function Landing() {
  const [input, setInput] = useState('');
  const [suggestions, setSuggestions] = useState<PlaceSuggestion[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = async (placeId: string) => {
    setBusy(true);
    setMessage(null);
    try {
      const [place] = await edge.addressRecommend({ placeId });
      if (!place) throw new Error('no place');
      setUserLocation({
        lat: place.geometry.location.lat,
        lng: place.geometry.location.lng,
        address: place.formatted_address,
        area: place.area,
        mainText: place.main_text,
        city: place.city,
      });
    } catch {
      setMessage('Oops! something went wrong. Please try entering your location again');
    } finally {
      setBusy(false);
    }
  };

  const findFood = async (event: FormEvent) => {
    event.preventDefault();
    if (!input.trim()) {
      setMessage('Please enter your delivery location to view restaurants.');
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const found = await edge.placeAutocomplete(input.trim());
      setSuggestions(found);
      if (found.length === 0) setMessage('Location not found');
    } catch {
      setMessage('Oops! something went wrong. Please try entering your location again');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="disc-landing">
      <h1 className="disc-landing__headline">Hungry?</h1>
      <p className="disc-landing__subtitle">Order food from favourite restaurants near you.</p>
      <form className="disc-landing__search" onSubmit={findFood}>
        <input
          className="disc-landing__input"
          aria-label="Enter your delivery location"
          placeholder="Enter your delivery location"
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
        <Button type="submit" disabled={busy}>
          FIND FOOD
        </Button>
      </form>
      {message ? (
        <p className="disc-landing__message" role="alert">
          {message}
        </p>
      ) : null}
      {suggestions.length > 0 ? (
        <ul className="disc-landing__suggestions" aria-label="Suggestions">
          {suggestions.map((suggestion) => (
            <li key={suggestion.place_id}>
              <button type="button" className="disc-landing__suggestion" disabled={busy} onClick={() => choose(suggestion.place_id)}>
                <strong>{suggestion.structured_formatting.main_text}</strong>
                <span>{suggestion.structured_formatting.secondary_text}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ul className="disc-landing__highlights">
        {HIGHLIGHTS.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </section>
  );
}
