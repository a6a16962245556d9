/** Public entry of the brand module (issue 27, record 203): what other modules read of the operator's brand. */
export { readBrand, readPlansView, readSiteBrand } from './service';
