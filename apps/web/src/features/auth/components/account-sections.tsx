/** Account page sections of the accounts issue (profile, email, security): placeholder until it is built. */
export function AccountSections() {
  return (
    <section aria-labelledby="profile-heading" className="rounded-xl border border-ink-700 bg-ink-900 p-5">
      <h2 id="profile-heading" className="text-lg font-semibold text-white">
        Profile Information
      </h2>
    </section>
  );
}
