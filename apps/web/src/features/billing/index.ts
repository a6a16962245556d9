/** Public entry of the billing feature (plans, checkout): what other features and app/ may use. */
export { CurrentPlanSection } from './components/current-plan-section';
