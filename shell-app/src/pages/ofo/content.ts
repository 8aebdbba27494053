/**
 * "Order for others" (`/ofo/{tab}`): how to send food to someone at another address with what the
 * storefront already has: a saved address for them, the landmark and the order note to find
 * them, and your own payment. Nothing here promises a feature the storefront does not have.
 */
import type { InfoSection } from '../info/content';

export interface OrderForOthersTab {
  id: string;
  label: string;
  intro: string;
  sections: InfoSection[];
}

const HELP = '[Help & Support](/support)';

/** The tabs, in order; the first is shown for `/ofo` and for a tab that does not exist. */
export const OFO_TABS: OrderForOthersTab[] = [
  {
    id: 'how-it-works',
    label: 'How it works',
    intro: 'Your parents across town, a friend who is unwell, a colleague working late: you can order from your own account and have the food delivered to them.',
    sections: [
      {
        heading: 'Deliver to their address',
        blocks: [
          { ordered: true, list: [
            'Choose their area as the delivery location at the top of the page, so you see the restaurants that deliver to them, not to you.',
            'Add their dishes to your cart as usual.',
            'At checkout, choose ADD NEW ADDRESS, find their street or move the pin to their building, and save it as Other. Next time it is in your saved addresses.',
            'Pay, and the order goes to them.',
          ] },
        ],
      },
      {
        heading: 'Help the rider find them',
        blocks: [
          'The rider sees the address you saved. Put what a stranger needs to find the door in Door / Flat No. and Landmark: the flat and floor, the building’s name, and something they cannot miss ("behind the temple, blue gate").',
          'In your cart, the note under "Any suggestions? We will pass it on…" travels with the order. Up to 200 characters: a good place for the name of the person who will receive it.',
        ],
      },
      {
        heading: 'You pay, they eat',
        blocks: [
          'Pay online with your card, UPI, netbanking, a wallet, pay-later or Tiffin Money, so there is nothing to pay at their door. Cash on delivery would ask them to pay.',
          'The order stays in your account: you follow the rider on the tracking page, and any refund comes back to you, the way you paid.',
        ],
      },
    ],
  },
  {
    id: 'gifting',
    label: 'Gifting',
    intro: 'A meal is a good present when you cannot be there: a birthday lunch, a Sunday treat for your parents, dinner for a friend with a newborn.',
    sections: [
      {
        heading: 'Ideas that travel well',
        blocks: [
          { list: [
            'A biryani and a dessert for a birthday: both arrive as good as they left.',
            'Comfort food for someone unwell: dal, khichdi, idli, soup. Look for restaurants with Healthy Food or South Indian on their list.',
            'Sweets from a mithai shop for a festival, when you are in another city.',
            'A week of lunches for someone busy: order one each day, to the same saved address.',
          ] },
        ],
      },
      {
        heading: 'Make it a surprise, or not',
        blocks: [
          'Tiffin sends the order’s messages and its bill to you, not to them. If it is a surprise, make sure someone will be at home to open the door; if not, tell them the time the tracking page shows.',
          'Coupons and your Tiffin One benefits apply as on any of your orders: see the [Offer Terms](/offer-terms).',
        ],
      },
    ],
  },
  {
    id: 'faq',
    label: 'FAQ',
    intro: 'Questions people ask before ordering for someone else.',
    sections: [
      {
        heading: 'Can I order to a city I am not in?',
        blocks: ['Yes. Choose a delivery location in that city: you see its restaurants and order from them as if you lived there.'],
      },
      {
        heading: 'Can they follow the order?',
        blocks: ['The tracking page is in your account, so you follow it. Tell them the expected time it shows, and when the rider has picked up the food.'],
      },
      {
        heading: 'What if nobody opens the door?',
        blocks: [`The rider tries to reach the address you gave. Check the flat number and landmark before you pay, and if something goes wrong, write to us from ${HELP} with the order.`],
      },
      {
        heading: 'Can I cancel it?',
        blocks: ['Yes, the same way as any order: free until the restaurant accepts it. The [Refund and Cancellation Policy](/refund-policy) says what happens after that, and the refund comes to you.'],
      },
      {
        heading: 'Does it cost more?',
        blocks: ['No. The bill is worked out the same way as for your own address: the item total, packaging, the delivery fee, the platform fee and GST, and any coupon you apply.'],
      },
    ],
  },
];

/** The tab `id` names, else the first: an old or mistyped link still shows the page. */
export function ofoTab(id: string | undefined): OrderForOthersTab {
  return OFO_TABS.find((tab) => tab.id === id) ?? OFO_TABS[0]!;
}
