/**
 * The text of the company and legal pages, one entry per page id. Everything here states how
 * the storefront really behaves (fees, cancellation, refunds, cookies, coupons): when the rule
 * changes in the service that owns it, this text changes with it.
 *
 * Paragraphs and list items may carry links written `[label](/path)` and names in backticks (shown
 * as code); only paths on this site are turned into links, so the text cannot send a reader
 * elsewhere by accident.
 */
import { INFO_PAGE_TITLES, type InfoPageId } from './titles';

/** A paragraph, or a list (bulleted, or numbered when the order matters). */
export type InfoBlock = string | { list: string[]; ordered?: boolean };

export interface InfoSection {
  heading: string;
  blocks: InfoBlock[];
}

export interface InfoPageContent {
  title: string;
  /** ISO date (YYYY-MM-DD) of the last change to the page's substance. */
  updated: string;
  intro: string;
  sections: InfoSection[];
}

const HELP = '[Help & Support](/support)';

const CONTENT: Record<InfoPageId, Omit<InfoPageContent, 'title'>> = {
  about: {
    updated: '2026-11-27',
    intro:
      'Tiffin is a food-delivery storefront for India. You tell us where to deliver, and we show you the restaurants that really reach that address, with their menus, prices and delivery times.',
    sections: [
      {
        heading: 'What we do',
        blocks: [
          'We list restaurants by the places they deliver to, not by how far away they are on a map. A restaurant that cannot reach your address is not shown, so what you order can actually arrive.',
          { list: [
            'Browse restaurants near you with their rating, cuisines, delivery time and cost for two, and sort and filter the list.',
            'Search for a restaurant or a dish, even with a spelling slip ("biriyani", "panner").',
            'Build a cart, see every line of the bill before you pay, and apply a coupon.',
            'Pay by card, UPI, netbanking, a linked wallet, pay-later, Tiffin Money or cash on delivery.',
            'Follow the rider on a live map from the restaurant to your door.',
          ] },
        ],
      },
      {
        heading: 'How an order works',
        blocks: [
          { ordered: true, list: [
            'You place and pay for the order. The restaurant is asked to confirm it.',
            'The restaurant accepts and starts cooking. A delivery partner is assigned so that they reach the restaurant as the food is ready.',
            'The rider picks up your order and rides to you. The tracking page shows where they are and when they will arrive.',
          ] },
          'Until the restaurant accepts, you can cancel for free. The [Refund and Cancellation Policy](/refund-policy) explains what happens after that.',
        ],
      },
      {
        heading: 'Where we deliver',
        blocks: [
          'We deliver in cities across India. The cities at the bottom of every page are the ones we deliver in today, and each city’s page lists its restaurants and areas.',
        ],
      },
      {
        heading: 'Talk to us',
        blocks: [
          `For anything about an order, your account or a payment, write to us from ${HELP}. Companies that want to order for their teams can read about [Tiffin for Corporates](/corporate).`,
        ],
      },
    ],
  },

  team: {
    updated: '2026-11-27',
    intro:
      'Tiffin is built by small teams, each of which owns one part of your order from start to finish: the pages you see, the services behind them and the data they keep.',
    sections: [
      {
        heading: 'Discovery',
        blocks: [
          'Finds the restaurants that deliver to you: locations, cities and areas, the restaurant listing, search and the menus. When a restaurant says it delivers to your area, this team makes sure that is what you see.',
        ],
      },
      {
        heading: 'Cart',
        blocks: [
          'Owns your cart and the bill: item prices, packaging, delivery fee, platform fee, GST and coupons. Every amount is worked out on our servers in paise, so the total you see is the total you pay.',
        ],
      },
      {
        heading: 'Checkout and orders',
        blocks: [
          'Takes your payment, places the order, tracks it to your door, and handles cancellations, refunds, reorders and tax invoices.',
        ],
      },
      {
        heading: 'Account and support',
        blocks: [
          'Owns sign-in by one-time code, your profile, saved addresses, favourites, SMS preferences, Tiffin One membership and Help & Support.',
        ],
      },
      {
        heading: 'The storefront shell',
        blocks: [
          'Holds the pages together: the header, the footer, the delivery location that every page shares, and pages like this one.',
          `Want to tell a team something? Write to us from ${HELP} and it will reach the right people.`,
        ],
      },
    ],
  },

  careers: {
    updated: '2026-11-27',
    intro:
      'We are building a food-delivery storefront that is quick on a budget phone and honest about every rupee. If that sounds like work you would enjoy, we would like to hear from you.',
    sections: [
      {
        heading: 'How we work',
        blocks: [
          { list: [
            'Small teams that own a part of the product end to end, from the page to the database.',
            'Money is counted in whole paise everywhere, and every bill line is computed on the server.',
            'Pages are built for a 360 px phone first and tested in a real browser before they ship.',
            'We write down why we made a choice, next to the code that makes it.',
          ] },
        ],
      },
      {
        heading: 'Who we look for',
        blocks: [
          { list: [
            'Engineers who work across web and services: React and TypeScript on the storefront, Rust and gRPC behind it.',
            'People who care about the customer waiting for their dinner: reliability, clear error messages and fast pages.',
            'Operations and support colleagues who know restaurants and delivery in Indian cities.',
          ] },
        ],
      },
      {
        heading: 'How to apply',
        blocks: [
          `Write to us from ${HELP} with the kind of work you do, a link to something you have built or run, and the city you would like to work from. We read every application and write back when there is a role that fits.`,
          'We never ask for money at any stage of hiring. An offer that asks you to pay a fee is not from Tiffin: see [Beware of Phishing and Fraud](/beware-of-phishing-and-fraud).',
        ],
      },
    ],
  },

  'bug-bounty': {
    updated: '2026-11-27',
    intro:
      'If you find a security problem in Tiffin, tell us privately and give us a fair chance to fix it. We will work with you, keep you informed and thank you for it.',
    sections: [
      {
        heading: 'What is in scope',
        blocks: [
          { list: [
            'This storefront and its API under /api, including sign-in, sessions, the cart, checkout, payments, order tracking and your account.',
            'Ways to see or change another customer’s orders, addresses, saved cards, UPI ids, Tiffin Money or favourites.',
            'Ways to take over a session, get around the one-time sign-in code, or make a request on a customer’s behalf without their consent (cross-site request forgery).',
            'Ways to pay less than the bill shows, apply a coupon whose terms are not met, or be refunded more than was paid.',
          ] },
        ],
      },
      {
        heading: 'What is out of scope',
        blocks: [
          { list: [
            'Denial-of-service attacks, load testing and automated scanning that slows the storefront for others.',
            'Social engineering of our staff, restaurants, delivery partners or customers.',
            'Reports that only say a header or setting is missing, without showing how it can be abused.',
            'Problems in a third party’s service, such as a bank’s or a wallet provider’s own pages.',
          ] },
        ],
      },
      {
        heading: 'Rules for testing',
        blocks: [
          { list: [
            'Use only accounts and mobile numbers that are yours. Never open, change or keep another person’s data: when you reach some, stop and tell us.',
            'Do not place real orders you do not intend to receive or pay for.',
            'Keep the problem to yourself until we have fixed it and agreed with you that it can be shared.',
          ] },
        ],
      },
      {
        heading: 'How to report',
        blocks: [
          `Write to us from ${HELP} with the title "Security report", what you found, the steps to reproduce it and what an attacker could do with it. We confirm we have received it, tell you when it is fixed, and decide any reward by how serious the problem is.`,
        ],
      },
    ],
  },

  'terms-and-conditions': {
    updated: '2026-11-27',
    intro:
      'These terms apply when you use the Tiffin storefront to find restaurants, order food and pay for it. By placing an order you agree to them.',
    sections: [
      {
        heading: 'Your account',
        blocks: [
          'You sign in with your mobile number and a one-time code we send by SMS. The code works once, for 10 minutes, and only in the browser where you asked for it. We send at most 5 codes to a number in an hour. After 5 wrong codes that browser cannot ask for or enter a code for 15 minutes; your number itself is never locked, so nobody can lock you out by guessing.',
          'Keep your phone and codes to yourself: anyone who has a code can sign in as you. Tiffin staff will never ask you for one.',
          'You can change your mobile number (with a code sent to the new number) and your email (with a link sent to it), and you can delete your account, from My Account.',
        ],
      },
      {
        heading: 'Restaurants, menus and prices',
        blocks: [
          'Restaurants set their own menus, prices, stock and preparation times, and prepare the food you order. We show a restaurant only where it delivers to your location.',
          'A dish can run out or change price between the time you add it and the time you pay. The cart always shows the current price and tells you when something is unavailable; you only pay what the bill shows when you pay.',
        ],
      },
      {
        heading: 'The bill',
        blocks: [
          'Every order’s bill lists each charge before you pay:',
          { list: [
            'Item total: the restaurant’s prices for what you ordered.',
            'Delivery fee: ₹25 for the first 3 km, then ₹8 for every kilometre or part of one beyond that.',
            'Packaging charges: ₹5 per item, at most ₹50 an order.',
            'Platform fee: ₹5 an order.',
            'GST: 5% on food and packaging, and 18% on the delivery and platform fees.',
            'Any coupon discount, and any cancellation fee still owed from an earlier cash-on-delivery order.',
          ] },
        ],
      },
      {
        heading: 'Paying',
        blocks: [
          'You can pay by card, UPI, netbanking, a linked wallet, pay-later, Tiffin Money (on its own or with another method for the rest) or cash on delivery. Cash on delivery is available for orders up to ₹5,000.',
          'A card payment may ask for the one-time password your bank sends (3-D Secure). We never keep your full card number or CVV: they go to our payment gateway and nowhere else.',
        ],
      },
      {
        heading: 'Cancellations and refunds',
        blocks: [
          'You can cancel free of charge until the restaurant accepts your order. After that, half of the order total is kept as a cancellation fee, and once the rider has picked up the order it can no longer be cancelled. The details are in the [Refund and Cancellation Policy](/refund-policy).',
        ],
      },
      {
        heading: 'Offers',
        blocks: [
          'Coupons and other offers follow the [Offer Terms](/offer-terms).',
        ],
      },
      {
        heading: 'Fair use',
        blocks: [
          'Do not use the storefront to place orders you do not intend to pay for or receive, to get around a coupon’s terms, or to reach anyone else’s account or data. We may refuse orders or close accounts that do.',
        ],
      },
      {
        heading: 'Questions and complaints',
        blocks: [
          `For a problem with an order, a payment or these terms, write to us from ${HELP}.`,
        ],
      },
    ],
  },

  'refund-policy': {
    updated: '2026-11-27',
    intro:
      'What it costs to cancel an order depends on how far the order has gone, and a refund goes back where the money came from unless you ask for Tiffin Money.',
    sections: [
      {
        heading: 'Cancelling an order',
        blocks: [
          'Cancel from the order in My Account, under [Orders](/my-account/orders). What cancelling does depends on the order’s status:',
          { list: [
            'Order Received (waiting for the restaurant to confirm): free. You get back everything you paid.',
            'Order Confirmed, Preparing or Rider Assigned: the restaurant has started on your food, so half of the order total is kept as a cancellation fee and the rest is refunded.',
            'Order Picked Up or Arriving: the order can no longer be cancelled.',
            'Delivered or already cancelled: nothing to cancel.',
          ] },
          'The fee is half of that order’s own total. It does not include any fee from an earlier order that the order was carrying; cancelling it makes that earlier fee owed again.',
        ],
      },
      {
        heading: 'Where your refund goes',
        blocks: [
          'When you cancel a paid order you choose where the refund goes:',
          { list: [
            'To the source: back to the card, UPI account, bank account, wallet or pay-later limit you paid with. Your bank or provider decides how long it takes to show.',
            'To Tiffin Money: credited at once, ready for your next order.',
          ] },
          'Whatever you paid with Tiffin Money always comes back as Tiffin Money. When you paid partly with Tiffin Money and partly by another method, the part paid by the other method is refunded first, then the Tiffin Money part.',
          'A refund is made once. If a bank or provider does not answer at first, we keep trying until the refund is accepted; you do not need to ask again.',
        ],
      },
      {
        heading: 'Tiffin One membership',
        blocks: [
          'A Tiffin One plan starts as soon as its payment is confirmed, or on the day your current membership ends if you already have one, and its benefits apply to every order until its end date.',
          'Membership fees are not refunded. You can cancel from [Tiffin One](/my-account/super) in My Account at any time: cancelling stops the membership from renewing, and you keep every benefit until the end date shown there.',
          'A plan bought together with food is yours once the order is confirmed: cancelling that order refunds the food as above, and neither refunds the plan nor takes a cancellation fee from it.',
        ],
      },
      {
        heading: 'Cash on delivery',
        blocks: [
          'A cash-on-delivery order takes no money until the rider arrives, so there is nothing to refund. If you cancel it after the restaurant has accepted it, the cancellation fee is added to your next order as a "Cancellation Fee" line on the bill, with a note saying why. It is added once, to one order, and never taxed or discounted.',
          'If that next order is itself cancelled or not paid, the fee it carried is owed again and moves to the order after.',
        ],
      },
      {
        heading: 'Payments that fail',
        blocks: [
          'If a payment fails (a card is declined, a UPI request expires or is refused, or you leave the bank’s page), the order is not placed and your cart stays as it was, so you can pay again. Any Tiffin Money set aside for that payment is returned to your balance straight away.',
        ],
      },
      {
        heading: 'Something wrong with your food',
        blocks: [
          `If an item is missing, wrong or spilled, tell us from ${HELP} with the order, and we will look into it with the restaurant.`,
        ],
      },
    ],
  },

  'privacy-policy': {
    updated: '2026-11-27',
    intro:
      'This policy says what personal data Tiffin keeps about you, why, for how long, and what you can do about it. We keep only what we need to take, deliver and support your orders.',
    sections: [
      {
        heading: 'What we keep about you',
        blocks: [
          { list: [
            'Your mobile number: how you sign in and how we reach you about an order.',
            'Your name and email, if you give them. A new email is used only after you follow the link we send to it.',
            'Your saved addresses: the address, flat number, area, city, landmark, delivery instructions, the contact number for that address and its point on the map, so a rider can find you. You can save up to 50, of which one home and one work address.',
            'Your favourite restaurants.',
            'Your SMS preferences: recommendations and promotions, and reminders. Messages about your orders are always sent.',
            'Your orders: what you ordered, from where, the bill, the delivery address, the status history and the tax invoice.',
            'Your payments and refunds, your Tiffin Money balance and its history.',
          ] },
        ],
      },
      {
        heading: 'Cards, UPI and wallets',
        blocks: [
          'We never keep your full card number or CVV. A saved card is kept as a token from our payment gateway together with its network, last 4 digits and expiry, which is all we can show you. UPI ids are saved after a successful UPI payment, so you can pay with them again.',
          'When you link a wallet or pay-later account, the provider sends you a one-time code and gives us a token for your account. We never show or log that token, and when you delink the account we ask the provider to revoke it and forget it.',
          'You can remove saved cards and UPI ids and delink wallets from My Account, under Payments.',
        ],
      },
      {
        heading: 'Sign-in codes and sessions',
        blocks: [
          'Every visit has a session, signed in or not. Your browser holds the session in a cookie; we keep only a scrambled copy (a one-way hash) of its token, so our records cannot be used to sign in as you. We also keep the browser’s name (its user agent) and a device id with the session, so our support team can tell your devices apart when you ask about your account.',
          'One-time sign-in codes are kept the same way, as a hash, and only for the 10 minutes they are valid. We count the codes sent to each number for an hour, to stop anyone from flooding a phone with messages.',
          'The [Cookie Policy](/cookie-policy) lists every cookie we set.',
        ],
      },
      {
        heading: 'How long we keep it',
        blocks: [
          { list: [
            'A session ends 30 days after it starts, or after 7 days without use, whichever comes first; ended sessions are deleted.',
            'Sign-in codes and email verification links are deleted once they expire.',
            'Your profile, addresses and favourites are kept while you have an account.',
            'Orders, payments and refunds are kept as records of what was bought and paid, as tax and accounting law requires, also after you delete your account.',
          ] },
        ],
      },
      {
        heading: 'Who we share it with',
        blocks: [
          { list: [
            'The restaurant you order from: the items, your choices and any note you leave for the restaurant.',
            'The delivery partner: the delivery address, your instructions and the contact number saved with that address.',
            'Payment gateways, banks, wallet and pay-later providers: what is needed to take or refund a payment.',
            'Our SMS provider: your mobile number and the message being sent.',
          ] },
          'We do not sell your data, and we do not use advertising or third-party tracking on the storefront.',
        ],
      },
      {
        heading: 'Your choices',
        blocks: [
          { list: [
            'See your profile, change your mobile number and email, and edit or delete saved addresses in My Account.',
            'Turn recommendation and reminder messages on or off in My Account, under Settings.',
            'Delete your account from My Account. This deletes your profile, saved addresses, favourites, pending email links, sign-in codes and every session at once, and signs you out.',
          ] },
          `For any other question about your data, write to us from ${HELP}.`,
        ],
      },
    ],
  },

  'cookie-policy': {
    updated: '2026-11-27',
    intro:
      'Cookies are small pieces of text your browser keeps for a website. Tiffin uses a few of its own, each for one job described below. We set no advertising cookies and no third-party tracking cookies.',
    sections: [
      {
        heading: 'Cookies that keep you signed in',
        blocks: [
          { list: [
            '`__Host-tfn_sid` (`tfn_sid` on a plain HTTP development server): your session. It keeps you signed in and keeps a guest’s cart across visits. It lasts until the session ends (at most 30 days, or 7 days without use). Scripts on the page cannot read it, and the browser sends it only to this site over a secure connection.',
            '`tfn_did`: a random id for this browser, kept for a year, so the browser is recognised as the same device across sessions. Scripts on the page cannot read it either.',
          ] },
          'Without these cookies you cannot sign in or keep a cart, so they cannot be turned off.',
        ],
      },
      {
        heading: 'Cookies that remember your choices',
        blocks: [
          { list: [
            '`userLocation`: your delivery location (its point on the map, the address text, area and city), kept for a year, so every page shows the restaurants that deliver to you.',
            '`deliveryAddressId`: which of your saved addresses you chose to deliver to, kept for a year and removed when you log out.',
            '`tfn_default_address_applied`: set for one minute after we pick one of your saved addresses as your location when you sign in, so we pick it only once.',
            '`tfn_default_address_declined`: set for one day when you choose another location instead of the one we picked, so we do not pick it again.',
          ] },
        ],
      },
      {
        heading: 'Storage in your browser',
        blocks: [
          'Besides cookies, the storefront keeps a few things in your browser’s local storage, under names starting with `tfn_dweb_`: a copy of a guest’s cart, your recent searches, whether you turned on the veg-only filter on menus, and the saved address chosen for delivery. Logging out removes the cart copy and the address choice.',
        ],
      },
      {
        heading: 'Managing cookies',
        blocks: [
          'You can delete cookies in your browser’s settings at any time. Deleting them signs you out, forgets a guest’s cart and asks you for your delivery location again. Logging out ends the session and removes the session and delivery address cookies.',
          `Questions about cookies? Write to us from ${HELP}.`,
        ],
      },
    ],
  },

  'offer-terms': {
    updated: '2026-11-27',
    intro:
      'These terms apply to every coupon on Tiffin, whether a restaurant offers it on its menu or we offer it at every restaurant.',
    sections: [
      {
        heading: 'General terms',
        blocks: [
          { list: [
            'One coupon per order. Applying another replaces the one you had.',
            'Codes are not case-sensitive: upi50 and UPI50 are the same coupon.',
            'A restaurant’s coupon works only on that restaurant’s menu. Our own coupons work at every restaurant.',
            'The cart checks a coupon again every time it is priced. If you change your cart and the coupon no longer applies, the cart keeps the code, shows why it does not apply and takes nothing off.',
            'We never apply a coupon for you. The cart lists the coupons you can use, largest saving first, and the others with the reason they do not apply yet.',
            'A discount never makes the amount to pay less than zero, and a flat discount never takes off more than the item total.',
            'Emptying the cart, or starting a cart from another restaurant, removes the coupon.',
          ] },
        ],
      },
      {
        heading: 'Kinds of offers',
        blocks: [
          { list: [
            'Percentage off: a share of the item total, rounded down to the paisa, up to the maximum the offer states (for example 20% off up to ₹100).',
            'Flat off: a fixed amount off the item total (for example ₹125 off).',
            'Free delivery: the delivery fee and the GST on it are waived.',
            'Items at a price: every item costs at most the stated price, and the difference comes off.',
            'Free item: a free dish is added to your order; it takes no money off. Removing the free item removes the coupon.',
          ] },
        ],
      },
      {
        heading: 'Conditions an offer can have',
        blocks: [
          { list: [
            'A minimum item total. The cart tells you how much more to add, for example "Add items worth ₹51 more to apply TIFFIN20".',
            'First order only: for customers who have never placed an order on Tiffin.',
            'A payment method: for example UPI50 gives ₹50 off orders above ₹299 when you pay by UPI. At checkout it gives nothing if you choose another way to pay.',
            'An end date, after which the code no longer applies.',
            'Free delivery applies only when the order has a delivery fee, and "items at a price" only when an item costs more than that price.',
          ] },
        ],
      },
      {
        heading: 'Cancelled orders and misuse',
        blocks: [
          'If you cancel an order after the restaurant accepts it, the cancellation fee is half of the order total after the discount, that is, half of what the bill asked you to pay. Coupons never apply to a cancellation fee carried over from an earlier order.',
          `We may withdraw an offer from accounts that misuse it. If a coupon did not apply as it should have, write to us from ${HELP}.`,
        ],
      },
    ],
  },

  'beware-of-phishing-and-fraud': {
    updated: '2026-11-27',
    intro:
      'Fraudsters sometimes pretend to be Tiffin, a restaurant or a delivery partner to get your money or your account. Here is what we will never do, and what to do if someone tries.',
    sections: [
      {
        heading: 'Tiffin will never ask you for',
        blocks: [
          'Not by phone, SMS, email, WhatsApp or social media, and not at your door:',
          { list: [
            'Your sign-in code (OTP). The code is for you to type into Tiffin yourself.',
            'Your card number, CVV, expiry date or your bank’s one-time password.',
            'Your UPI PIN. You never need your PIN to receive a refund: a request that asks for it is taking money, not giving it.',
            'Your wallet or pay-later one-time code.',
            'Money to "unlock" a refund, a prize, a job or a restaurant listing.',
            'To install a screen-sharing or remote-access app.',
          ] },
          'You type your card details and your bank’s one-time password only into checkout on this site, never to a person, and your UPI PIN only in your own UPI app.',
        ],
      },
      {
        heading: 'How refunds really reach you',
        blocks: [
          'Refunds go back to the card, UPI account, bank account, wallet or pay-later account you paid with, or to your Tiffin Money, as you chose when you cancelled. You do not have to do anything to receive one, and nobody will call you to "process" it. See the [Refund and Cancellation Policy](/refund-policy).',
        ],
      },
      {
        heading: 'Signs of a scam',
        blocks: [
          { list: [
            'A "customer care number" found in a search result or on social media. Tiffin’s help is only in [Help & Support](/support) on this site.',
            'A link to a page that looks like Tiffin but is on another web address.',
            'Pressure to act now: an order "about to be cancelled", a refund "about to expire".',
            'A UPI collect request you did not start, especially one described as a refund.',
          ] },
        ],
      },
      {
        heading: 'If something happened',
        blocks: [
          { ordered: true, list: [
            'Do not share any more codes or details, and end the call.',
            'If money left your account, call your bank to block the card or UPI access.',
            'Report it to the national cybercrime helpline 1930 or at cybercrime.gov.in.',
            `Tell us from ${HELP}, with the number or link that contacted you, so we can warn others.`,
          ] },
        ],
      },
    ],
  },

  'tnc-corporate-sm': {
    updated: '2026-11-27',
    intro:
      'These terms apply when your employer gives you Tiffin Money as part of the Tiffin for Corporates programme, in addition to the general [Terms and Conditions](/terms-and-conditions).',
    sections: [
      {
        heading: 'Receiving Tiffin Money',
        blocks: [
          'Your employer decides who receives Tiffin Money, how much and how often. It is credited to the Tiffin account of the mobile number your employer gave us and shows in My Account, under Payments, with each credit in its history.',
        ],
      },
      {
        heading: 'Spending it',
        blocks: [
          { list: [
            'Use it on any order, at any restaurant that delivers to you, on its own or together with a card, UPI, netbanking, a wallet or pay-later for the rest of the bill.',
            'It cannot be combined with cash on delivery.',
            'It cannot be transferred to another account or withdrawn to a bank account.',
          ] },
        ],
      },
      {
        heading: 'Cancellations and refunds',
        blocks: [
          'Whatever you paid with Tiffin Money comes back as Tiffin Money when an order is cancelled or refunded, following the [Refund and Cancellation Policy](/refund-policy).',
        ],
      },
      {
        heading: 'When things change',
        blocks: [
          'Your employer can stop future credits at any time, for example when you leave. Tiffin Money already credited to your account stays yours to spend under these terms.',
          `Questions about a credit? Ask your employer’s programme contact, or write to us from ${HELP}.`,
        ],
      },
    ],
  },

  'tnc-corporate-discount': {
    updated: '2026-11-27',
    intro:
      'These terms apply to discounts that Tiffin offers to employees of companies in the Tiffin for Corporates programme, in addition to the general [Terms and Conditions](/terms-and-conditions) and the [Offer Terms](/offer-terms).',
    sections: [
      {
        heading: 'Who can use it',
        blocks: [
          'Employees of a company that has agreed a discount with us. Your employer shares the coupon code and tells you who in your company may use it.',
        ],
      },
      {
        heading: 'How it applies',
        blocks: [
          { list: [
            'Enter the code in your cart like any coupon. It is checked again every time the cart is priced.',
            'One coupon per order: the corporate discount cannot be combined with another coupon.',
            'The discount, its maximum and any minimum order are those agreed with your employer, and the cart shows what it takes off before you pay.',
            'It applies to the item total, or to the delivery fee for a free-delivery code; never to a cancellation fee carried over from an earlier order.',
          ] },
        ],
      },
      {
        heading: 'Ending the discount',
        blocks: [
          'The discount ends when the agreement with your employer ends or you leave the company. We may withdraw it from accounts that share the code outside the company.',
          `Questions? Write to us from ${HELP}.`,
        ],
      },
    ],
  },
};

export function infoPageContent(id: InfoPageId): InfoPageContent {
  return { title: INFO_PAGE_TITLES[id], ...CONTENT[id] };
}
