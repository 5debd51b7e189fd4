/** Test support for code that talks to a Kubernetes API server: fabric8's mock server, wrapped. */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // fabric8's jars
module dev.stele.k8s.testing {
  requires static transitive org.jspecify; // @Nullable in exported signatures
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.core;
  requires kubernetes.model.apiextensions;
  requires kubernetes.server.mock;
  requires mockwebserver;
  requires com.fasterxml.jackson.databind;

  exports dev.stele.k8s.testing;
}
