/**
 * The repository server: one open repository served over HTTPS to users with their own passwords,
 * each seeing only what their access rules allow. Its records are open to Jackson, which writes
 * them as the API's JSON.
 */
module dev.stele.server {
  requires static org.jspecify;
  requires transitive dev.stele.core; // start takes a Repository
  requires dev.stele.k8s.api;
  requires com.fasterxml.jackson.databind;
  requires jdk.httpserver;
  requires org.bouncycastle.provider;

  exports dev.stele.server;

  opens dev.stele.server to
      com.fasterxml.jackson.databind;
}
