-- The restaurant's phone number from the catalogue, passed on with the restaurant so an order's
-- tracking can offer to call it. Restaurants seeded before it existed have none ('').
ALTER TABLE restaurants ADD COLUMN phone TEXT NOT NULL DEFAULT '';
