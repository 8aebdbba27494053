import { getUserLocation, on, type UserLocation } from '@tiffin/contract';
import { useEffect, useState } from 'react';

/** The stored delivery location, kept current by `location:changed`. */
export function useUserLocation(): UserLocation | null {
  const [location, setLocation] = useState<UserLocation | null>(getUserLocation);
  useEffect(() => on('location:changed', (next) => setLocation(next)), []);
  return location;
}
