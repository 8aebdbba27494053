/**
 * `/nyequiz`: six questions about dishes from around India, scored in the browser. The result
 * shows the score, what each answer should have been and why, and the way to restaurants.
 */
import { Button, Link } from '@tiffin/design-system';
import { useState, type FormEvent } from 'react';
import { isComplete, QUIZ, quizResult, scoreQuiz, type QuizAnswers } from './quiz';

export default function QuizPage() {
  const [answers, setAnswers] = useState<QuizAnswers>({});
  const [submitted, setSubmitted] = useState(false);
  const complete = isComplete(answers);
  const score = scoreQuiz(answers);
  const result = quizResult(score);
  const answered = Object.keys(answers).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (complete) setSubmitted(true);
  };
  const again = () => {
    setAnswers({});
    setSubmitted(false);
  };

  return (
    <article className="shell-info-page" aria-labelledby="shell-quiz-title">
      <h1 id="shell-quiz-title">New Year’s Eve food quiz</h1>
      <p className="shell-info-page__intro">
        Six questions about dishes from across India, to settle an argument before the countdown. Your answers stay on this page.
      </p>
      <form className="shell-quiz" onSubmit={submit}>
        {QUIZ.map((q, index) => {
          const chosen = answers[q.id];
          return (
            <fieldset key={q.id} className="shell-quiz__question" disabled={submitted}>
              <legend>{index + 1}. {q.question}</legend>
              {q.choices.map((choice, i) => (
                <label key={choice} className="shell-quiz__choice">
                  <input type="radio" name={q.id} value={i} checked={chosen === i} onChange={() => setAnswers({ ...answers, [q.id]: i })} />
                  {choice}
                </label>
              ))}
              {submitted ? (
                <p className={chosen === q.answer ? 'shell-quiz__right' : 'shell-quiz__wrong'}>
                  {chosen === q.answer ? 'Right. ' : `The answer is ${q.choices[q.answer]}. `}
                  {q.why}
                </p>
              ) : null}
            </fieldset>
          );
        })}
        {submitted ? null : (
          <>
            <Button type="submit" disabled={!complete}>See my score</Button>
            {complete ? null : <p className="shell-quiz__progress">{answered} of {QUIZ.length} answered</p>}
          </>
        )}
      </form>
      {submitted ? (
        <section className="shell-quiz__result" aria-labelledby="shell-quiz-result" aria-live="polite">
          <h2 id="shell-quiz-result">You scored {score} of {QUIZ.length}: {result.title}</h2>
          <p>{result.text}</p>
          <p>
            <Link className="ds-button ds-button--primary" href="/restaurants">Order for the countdown</Link>{' '}
            <Button variant="secondary" onClick={again}>Play again</Button>
          </p>
          <p>
            The stories behind the questions are in <Link href="/moments">Tiffin Moments</Link>.
          </p>
        </section>
      ) : null}
    </article>
  );
}
