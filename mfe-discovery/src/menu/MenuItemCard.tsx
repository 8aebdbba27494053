/**
 * One dish: veg mark, spice, ribbon, name, price (with the struck-out
 * original), a clamped description, the lazy image and the add control. An out-of-stock dish is
 * greyed and labelled 'Unavailable'.
 */
import { formatPrice, Image, imageUrl, VegMark } from '@tiffin/design-system';
import { useState } from 'react';
import { AddControl } from './AddControl';
import { isCustomisable, isInStock, itemPrice, needsClamp, spiceIcons, struckOutPrice, unavailableText } from './menu-rules';
import type { MenuItemFull as MenuItem } from './menu-types';

/** Shown when a dish's own image fails to load. */
const ITEM_IMAGE_FALLBACK = imageUrl('item-placeholder', { w: 156, h: 144 });

interface MenuItemCardProps {
  item: MenuItem;
  /** The dish's name is a heading one level under its section's (h2 section: h3; h3 sub-section: h4). */
  headingLevel?: 3 | 4;
  /** Among the first dishes with a picture: it is fetched first (the menu's LCP element). */
  priority?: boolean;
  quantity: number;
  /** The restaurant is closed: nothing can be added. */
  ordering: boolean;
  onAdd: (item: MenuItem) => void;
  onIncrement: (item: MenuItem) => void;
  onDecrement: (item: MenuItem) => void;
}

const SPICE_LABELS: Record<number, string> = { 1: 'Medium spicy', 2: 'Very spicy' };

/** Drawn, not an emoji: emoji fonts are missing on many desktops and all headless browsers. */
function ChilliIcon() {
  return (
    <svg className="disc-item__chilli" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path d="M11.5 2.5c.8-.9 1.9-1.2 2.5-.8-.8.2-1.4.7-1.7 1.4" fill="none" stroke="#60b246" strokeWidth="1.4" strokeLinecap="round" />
      <path d="M12.6 4.2c1.2 1.5.6 4.3-1.8 6.6-2.5 2.4-6 3.7-8.6 3.4-.6-.1-.6-.7 0-.9 2.6-.9 4.8-2.6 6.2-4.6 1-1.5 1.3-3 1.9-4.1.5-.8 1.7-1.1 2.3-.4z" fill="#e43b4f" />
    </svg>
  );
}

function Price({ item }: { item: MenuItem }) {
  const price = itemPrice(item);
  const struck = struckOutPrice(item);
  return (
    <p className="disc-item__price">
      {struck !== null ? (
        <s className="disc-item__original" aria-label={`Original price ${formatPrice(struck)}`}>
          {formatPrice(struck)}
        </s>
      ) : null}
      <span className="disc-item__final" data-testid="item-price">{formatPrice(price)}</span>
    </p>
  );
}

export function MenuItemCard({ item, headingLevel = 3, priority = false, quantity, ordering, onAdd, onIncrement, onDecrement }: MenuItemCardProps) {
  const Name = headingLevel === 3 ? 'h3' : 'h4';
  const [expanded, setExpanded] = useState(false);
  const inStock = isInStock(item);
  const customisable = isCustomisable(item);
  const spice = spiceIcons(item.spiceLevel);
  const clamp = needsClamp(item.description) && !expanded;

  return (
    <li className={inStock ? 'disc-item' : 'disc-item disc-item--unavailable'} data-testid="menu-item" data-item-id={item.id} aria-label={item.name}>
      <div className="disc-item__info">
        <div className="disc-item__marks">
          <VegMark vegType={item.vegType} isVeg={item.isVeg} />
          {spice > 0 ? (
            <span className="disc-item__spice" role="img" aria-label={SPICE_LABELS[spice]} title={SPICE_LABELS[spice]} data-spice-icons={spice}>
              {Array.from({ length: spice }, (_, i) => (
                <ChilliIcon key={i} />
              ))}
            </span>
          ) : null}
          {item.ribbon?.text ? <span className="disc-item__ribbon">★ {item.ribbon.text}</span> : null}
        </div>
        <Name className="disc-item__name">{item.name}</Name>
        <Price item={item} />
        {item.description ? (
          <>
            <p className={clamp ? 'disc-item__description disc-item__description--clamped' : 'disc-item__description'}>{item.description}</p>
            {clamp ? (
              <button type="button" className="disc-item__more" onClick={() => setExpanded(true)} aria-label={`Read more about ${item.name}`}>
                more
              </button>
            ) : null}
          </>
        ) : null}
        {inStock ? null : (
          <p className="disc-item__status" title="This item is not available." data-testid="item-unavailable">
            <strong>Unavailable</strong>
            <span className="disc-item__next">{unavailableText(item)}</span>
          </p>
        )}
      </div>
      <div className="disc-item__side">
        {item.cloudinaryImageId ? (
          <Image
            src={imageUrl(item.cloudinaryImageId, { w: 156, h: 144 })}
            fallbackSrc={ITEM_IMAGE_FALLBACK}
            alt=""
            width={156}
            height={144}
            priority={priority}
            className="disc-item__image"
          />
        ) : null}
        <AddControl
          itemName={item.name}
          quantity={quantity}
          disabled={!ordering || !inStock}
          customisable={customisable}
          onAdd={() => onAdd(item)}
          onIncrement={() => onIncrement(item)}
          onDecrement={() => onDecrement(item)}
        />
      </div>
    </li>
  );
}
