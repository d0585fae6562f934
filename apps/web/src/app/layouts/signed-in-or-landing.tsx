import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { hasSession, useAuthStore } from '@/lib/auth-store';
import { withArea } from '../screens';
import { SignedInLayout } from './signed-in-layout';

// Its own chunk, with its own few strings: the signed-in Dashboard's first load carries neither.
const LandingPage = lazy(async () => ({
  default: (await withArea('landing', import('@/features/landing/components/landing-page'))).LandingPage,
}));

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
