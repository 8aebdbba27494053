/**
 * The New Year's Eve food quiz: its questions, and the scoring the page does in the browser.
 * Nothing is sent anywhere; the answers live in the page's state until it is left.
 */

export interface QuizQuestion {
  id: string;
  question: string;
  choices: string[];
  /** Index into `choices`. */
  answer: number;
  /** Shown with the result: why the answer is the answer. */
  why: string;
}

export const QUIZ: QuizQuestion[] = [
  {
    id: 'biryani-seal',
    question: 'A Hyderabadi dum biryani is cooked in a pot sealed with…',
    choices: ['A banana leaf', 'A rope of dough', 'Aluminium foil', 'Only its lid'],
    answer: 1,
    why: 'The dough seal keeps the steam in while the rice and meat finish together on a low fire.',
  },
  {
    id: 'dosa-batter',
    question: 'Dosa batter is rice ground with which dal, and left to ferment overnight?',
    choices: ['Chana dal', 'Moong dal', 'Urad dal', 'Masoor dal'],
    answer: 2,
    why: 'Rice and urad dal, soaked, ground and fermented: the urad dal makes it rise and go crisp.',
  },
  {
    id: 'vada-pav',
    question: 'The vada in a Mumbai vada pav is made of…',
    choices: ['Paneer', 'Spiced potato', 'Moong dal', 'Cabbage and carrot'],
    answer: 1,
    why: 'A spiced potato mash, dipped in gram flour batter and fried.',
  },
  {
    id: 'kathi-roll',
    question: 'Which city gave India the kathi roll?',
    choices: ['Lucknow', 'Amritsar', 'Kolkata', 'Chennai'],
    answer: 2,
    why: 'Kolkata: kebabs rolled in a paratha, later with an egg fried onto it.',
  },
  {
    id: 'chole',
    question: 'What gives Delhi’s chole its dark colour?',
    choices: ['Tea leaves or dried amla simmered with the chickpeas', 'Soy sauce', 'Burnt sugar', 'Black cardamom alone'],
    answer: 0,
    why: 'A bundle of tea leaves or dried amla in the pot darkens the chickpeas as they cook.',
  },
  {
    id: 'filter-coffee',
    question: 'South Indian filter coffee is poured back and forth between the tumbler and the…',
    choices: ['Kulhad', 'Dabara', 'Lota', 'Katori'],
    answer: 1,
    why: 'The dabara, a wide bowl: pouring from a height cools the coffee and makes it foam.',
  },
];

/** The chosen choice's index per question id; a question not answered yet is absent. */
export type QuizAnswers = Readonly<Record<string, number>>;

export function isComplete(answers: QuizAnswers): boolean {
  return QUIZ.every((q) => answers[q.id] !== undefined);
}

/** How many answers are right. */
export function scoreQuiz(answers: QuizAnswers): number {
  return QUIZ.filter((q) => answers[q.id] === q.answer).length;
}

export interface QuizResult {
  title: string;
  text: string;
}

/** What a score says about the party's food, from all right down to none. */
export function quizResult(score: number): QuizResult {
  if (score >= QUIZ.length) {
    return { title: 'Midnight feast master', text: 'Every answer right. You are the one who should be ordering for the party tonight.' };
  }
  if (score >= 4) {
    return { title: 'Countdown connoisseur', text: 'You know your food. One or two more stories and the table is yours.' };
  }
  if (score >= 2) {
    return { title: 'Snack-table regular', text: 'You know what you like, and that is what matters at midnight. The stories in Tiffin Moments fill in the rest.' };
  }
  return { title: 'Hungry for more', text: 'Not your night for trivia, but it can still be your night for food.' };
}
