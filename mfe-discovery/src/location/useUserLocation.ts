import { getUserLocation, on, type UserLocation } from '@tiffin/contract';
import { useEffect, useState } from 'react';

/** The stored delivery location, kept current by `location:changed` from any microfrontend. */
export function useUserLocation(): UserLocation | null {
  const [location, setLocation] = useState<UserLocation | null>(getUserLocation);
  useEffect(() => on('location:changed', setLocation), []);
  return location;
}
