/** Public entry of the delivery feature: the admins' warning about stores without a connection (issue 44). */
export { UnconnectedStoresWarning } from './components/unconnected-stores-warning';
