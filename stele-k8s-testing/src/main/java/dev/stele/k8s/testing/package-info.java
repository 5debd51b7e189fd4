/**
 * Test support for code that talks to a Kubernetes API server: {@link
 * dev.stele.k8s.testing.ApiServer}. Used by tests only (test scope); depends on fabric8's mock
 * server and nothing of Stele's.
 */
package dev.stele.k8s.testing;
