/**
 * The text of Tiffin Moments: short written pieces about a dish and the city and hour it belongs
 * to. Each ends with a way to order that dish from the restaurants near the reader (a cuisine
 * page), written `[label](/path)` like the company pages' links.
 */
import type { InfoSection } from '../info/content';
import { MOMENT_SLUGS, MOMENT_TITLES, type MomentSlug } from './slugs';

export interface Moment {
  slug: MomentSlug;
  title: string;
  city: string;
  dish: string;
  /** One or two sentences: the index's summary and the story's opening. */
  summary: string;
  sections: InfoSection[];
}

const STORIES: Record<MomentSlug, Omit<Moment, 'slug' | 'title'>> = {
  'hyderabad-biryani-after-midnight': {
    city: 'Hyderabad',
    dish: 'Dum biryani',
    summary: 'In Hyderabad the best biryani conversations start after the last show. A pot sealed with dough, opened at the table, and nobody checking the time.',
    sections: [
      {
        heading: 'The seal',
        blocks: [
          'A Hyderabadi dum biryani is cooked twice: the meat in its marinade of curd, fried onion, mint and green chilli, then layered with rice that is only two-thirds done, and the pot sealed with a rope of dough. The rest happens on a low fire, in the steam nobody is allowed to let out.',
          'That is why the moment the seal is broken matters. The smell of saffron and browned onion comes up first, then the rice, every grain apart, long and still a little firm, and underneath, the meat that has been waiting in its own masala.',
        ],
      },
      {
        heading: 'After the last show',
        blocks: [
          'Ask anyone who grew up in the old city and they will tell you about a plate eaten too late: after a wedding, after a cricket final, after the last film let out. Biryani is the food of staying up, of one more story at the table, of mirchi ka salan and a bowl of raita passed around without asking.',
        ],
      },
      {
        heading: 'Ordering it well',
        blocks: [
          { list: [
            'Order a little earlier than you think: a good dum biryani is packed from a pot that was sealed hours ago, and late-night kitchens run out.',
            'Ask for the salan and raita if the menu offers them as add-ons; they are half the meal.',
            'A full biryani feeds two people who are hungry, or three who had dinner already.',
          ] },
          '[Find biryani near you](/biryani-restaurants-near-me).',
        ],
      },
    ],
  },

  'kolkata-kathi-roll-at-the-station': {
    city: 'Kolkata',
    dish: 'Kathi roll',
    summary: 'A paratha, an egg broken onto it, kebabs rolled inside and a squeeze of lime: Kolkata’s kathi roll was made to be eaten on the way somewhere.',
    sections: [
      {
        heading: 'Made to be carried',
        blocks: [
          'The roll began as a way to eat kebabs without a plate: skewered meat, kathi, wrapped in a flaky paratha so it could be held in one hand. Somewhere along the way an egg was broken onto the paratha as it fried, and the Kolkata roll as it is eaten today was settled: egg paratha, chicken or mutton kebab, raw onion, green chilli, lime, and a little ketchup if you insist.',
        ],
      },
      {
        heading: 'The last train',
        blocks: [
          'For years of Kolkata office-goers the roll was the dinner eaten walking to Sealdah or Howrah, wrapped in paper that went translucent with oil by the time the train came. It is still the thing people order when they get home late and want something hot that does not need a table.',
        ],
      },
      {
        heading: 'Ordering it well',
        blocks: [
          { list: [
            'A double egg roll is the classic; a paneer or aloo roll is the vegetarian one most places make.',
            'Rolls travel well, wrapped tight. Open the paper only as far as you eat.',
            'If you like it sharp, ask in your order note for extra lime and chilli.',
          ] },
          '[Find rolls near you](/rolls-wraps-restaurants-near-me).',
        ],
      },
    ],
  },

  'chennai-dosa-on-a-sunday': {
    city: 'Chennai',
    dish: 'Masala dosa and filter coffee',
    summary: 'A Sunday in Chennai can be measured by its breakfast: the ring of the tumbler and dabara, a dosa wider than the plate, and nobody in a hurry.',
    sections: [
      {
        heading: 'The batter that waited',
        blocks: [
          'A dosa starts the day before. Rice and urad dal are soaked, ground and left overnight to ferment, and the batter rises a little in the warm kitchen. On a hot tawa it is spread thin in one spiral, a spoon of ghee or oil around the edge, and lifted off crisp and golden, with a filling of potato, onion and mustard seeds folded inside.',
        ],
      },
      {
        heading: 'Sunday, slowly',
        blocks: [
          'In many Chennai homes Sunday breakfast is the one meal nobody skips. The filter coffee, decoction over milk, is poured from tumbler to dabara and back until it foams, and the dosas come out one at a time, so whoever is at the table eats the crispest one.',
        ],
      },
      {
        heading: 'Ordering it well',
        blocks: [
          { list: [
            'Crisp dosas soften in the box. The nearer the restaurant, the better it arrives: sort by delivery time.',
            'Sambar and coconut chutney come with most dosas; the red chutney and podi are worth asking about.',
            'Order the coffee with it. It comes sealed, and reheats well for the second cup.',
          ] },
          '[Find South Indian food near you](/south-indian-restaurants-near-me).',
        ],
      },
    ],
  },

  'mumbai-vada-pav-in-the-rain': {
    city: 'Mumbai',
    dish: 'Vada pav',
    summary: 'The first heavy rain of June does something to Mumbai: the trains slow down, the streets fill with water, and everyone wants a vada pav.',
    sections: [
      {
        heading: 'Mumbai’s own sandwich',
        blocks: [
          'A spiced potato vada, dipped in gram flour batter and fried, pressed into a soft pav with a dry garlic chutney, a sweet-and-sour green one and a fried green chilli on the side. It was made for mill workers who needed a meal that cost little and could be eaten standing up, and it is still the city’s most democratic food.',
        ],
      },
      {
        heading: 'Monsoon',
        blocks: [
          'When the monsoon arrives the craving is for anything hot and fried: vada pav, bhajiya, cutting chai. It is the one time of year when people who have not stepped out of the office happily wait for a vada to come out of the kadhai.',
        ],
      },
      {
        heading: 'Ordering it well',
        blocks: [
          { list: [
            'In heavy rain deliveries take longer, and the restaurant list shows each one’s delivery time as it is now.',
            'Order the chutneys on the side if the menu allows it, so the pav does not go soggy on the way.',
            'Two vada pav and a cutting chai is a proper monsoon evening.',
          ] },
          '[Find street food near you](/street-food-restaurants-near-me).',
        ],
      },
    ],
  },

  'delhi-chole-bhature-for-the-first-frost': {
    city: 'Delhi',
    dish: 'Chole bhature',
    summary: 'Delhi’s winter has a breakfast: bhature puffed up like balloons, a bowl of dark, tangy chole, pickled onion and a glass of lassi, on the first morning cold enough for a shawl.',
    sections: [
      {
        heading: 'Dark and slow',
        blocks: [
          'Good Delhi chole is dark, almost black, from tea leaves or dried amla simmered with the chickpeas, and sour from amchur and pomegranate seed. The bhatura is a leavened dough, sometimes with a little curd, rolled and fried until it puffs up into a hollow, crisp outside and soft within.',
        ],
      },
      {
        heading: 'The first cold morning',
        blocks: [
          'When the fog settles over the city in December and the first shawls come out of the trunks, the queues outside the old chole bhature shops get longer. It is a heavy breakfast for a cold day, eaten slowly, and usually followed by a long nap.',
        ],
      },
      {
        heading: 'Ordering it well',
        blocks: [
          { list: [
            'Bhature flatten as they cool: eat them first and the chole after.',
            'One plate is a full meal for most people. Two plates and a lassi is a Sunday.',
            'Ask for extra onion and green chilli if the menu offers them.',
          ] },
          '[Find North Indian food near you](/north-indian-restaurants-near-me).',
        ],
      },
    ],
  },
};

export function moment(slug: MomentSlug): Moment {
  return { slug, title: MOMENT_TITLES[slug], ...STORIES[slug] };
}

/** Every story, in the index's order. */
export const MOMENTS: Moment[] = MOMENT_SLUGS.map(moment);
