/**
 * The custom resources of API group {@code stele.dev}, version {@code v1alpha1}: plain data with
 * validation annotations, from which the CRDs in {@code deploy/crds} are generated. Field names
 * follow Velero's where the meaning is the same.
 *
 * <p>Depends on the fabric8 model only: never on the operator, storage or the repository format.
 */
package dev.stele.k8s.api;
