/** The provider of reseller-link connections (managed by the operator; a partner may have several). */
export const RESELLER_LINK = 'reseller-link';
