/** Public entry of the brand feature (issue 27, record 203): the Settings cards and the admins' warnings. */
export { BrandCard } from './components/brand-card';
export { BrandWarnings } from './components/brand-warnings';
export { PlansCard } from './components/plans-card';
