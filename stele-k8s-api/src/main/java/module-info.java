/**
 * The custom resources of API group {@code stele.dev}: plain data on the fabric8 model, nothing of
 * Stele's. Open, because Jackson (through fabric8 and java-operator-sdk) maps the resource classes
 * by reflection.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // fabric8's jars
open module dev.stele.k8s.api {
  requires static transitive org.jspecify; // @Nullable in exported signatures
  requires transitive com.fasterxml.jackson.annotation;
  requires transitive com.fasterxml.jackson.databind; // JsonPaths' signature
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.common;
  requires transitive kubernetes.model.core;
  requires static generator.annotations;

  exports dev.stele.k8s.api;
}
