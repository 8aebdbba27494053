/**
 * A meal page (/meals/{mealId} and /meals/{mealId}?restId={id}).
 * Meals are not sold in this storefront yet, so the page says so plainly and, when the link names
 * the restaurant, offers its menu instead of a blank page or a wrong one.
 */
import { navigate } from '@tiffin/contract';
import { ErrorState } from '@tiffin/design-system';
import { useDocumentTitle } from '../common/useDocumentTitle';

const MEAL_UNAVAILABLE = {
  title: 'This meal is not available',
  message: 'Meals cannot be ordered online right now.',
};

export function MealPage({ restaurantId }: { mealId?: string; restaurantId?: string }) {
  useDocumentTitle(MEAL_UNAVAILABLE.title);
  const validId = restaurantId && /^[0-9]+$/.test(restaurantId) ? restaurantId : undefined;
  return (
    <ErrorState
      role="region"
      title={MEAL_UNAVAILABLE.title}
      message={validId ? `${MEAL_UNAVAILABLE.message} You can still order from the restaurant's menu.` : MEAL_UNAVAILABLE.message}
      actionLabel={validId ? 'SEE THE MENU' : 'GO HOME'}
      onAction={() => navigate(validId ? `/menu/${validId}` : '/')}
    />
  );
}
