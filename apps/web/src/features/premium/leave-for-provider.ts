/** Sends the browser to the provider's page (checkout, approval, confirmation); it comes back to a result page. */
export const leaveForProvider = (url: string): void => window.location.assign(url);
