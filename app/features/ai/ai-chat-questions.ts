// The questions the AI chat suggests (its welcome and its list of what it can answer): each is
// answered offline, and a test asks every one of them over the demo books.
export const SUGGESTED = {
  ourSpend: 'What did we spend this year?',
  companySpend: 'What did Vult spend in 2026?',
  categorySpend: 'What did Vult spend on Salaries last month?',
  topCategories: 'Top categories for One Network last year',
  budget: 'Is Atlas over budget in 2026?',
  anomalies: 'Any anomalies in the last 90 days?',
  forecast: 'Forecast the next 6 months of Salaries for Vult',
} as const;

export const SUGGESTED_QUESTIONS: readonly string[] = Object.values(SUGGESTED);
