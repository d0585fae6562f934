import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { hasSession, useAuthStore } from '@/lib/auth-store';
import { SignedInLayout } from './signed-in-layout';

// Its own chunk, which the signed-in Dashboard's first load does not carry; its few strings are the
// shell's, so that it shows as soon as its code has arrived.
const LandingPage = lazy(async () => ({ default: (await import('@/features/landing/components/landing-page')).LandingPage }));

/** `/` signed out is the landing page; everything else is the signed-in shell. */
export function SignedInOrLanding() {
  const signedIn = useAuthStore(hasSession);
  const { pathname } = useLocation();
  // A visit that began signed out; a session that ends here goes to sign in, as everywhere else.
  const [arrivedSignedOut] = useState(() => !signedIn);
  if (arrivedSignedOut && !signedIn && pathname === '/') {
    return (
      <Suspense fallback={<PageLoader />}>
        <LandingPage />
      </Suspense>
    );
  }
  return <SignedInLayout />;
}
