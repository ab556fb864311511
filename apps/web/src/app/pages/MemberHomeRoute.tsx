import { AgreementModal } from '../../features/agreement/AgreementModal';
import { HomePage } from '../../features/home/HomePage';

/** /user/home: the dashboard plus the agreement modal (features stay unaware of each other). */
export function MemberHomeRoute() {
  return (
    <>
      <HomePage />
      <AgreementModal />
    </>
  );
}
