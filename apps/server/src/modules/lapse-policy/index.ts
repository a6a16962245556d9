/** Public entry of the lapse policy (record 196): the daily run, for the journeys' fixtures route. */
export { applyLapsePolicy } from './service';
